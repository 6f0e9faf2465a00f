/**
 * The one clock a controller reads: wall time and timers. Tests may pass their own (a fake that
 * advances on demand); the default is the process clock. Timers never hold the process open.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return () => clearTimeout(t);
  },
};

/** RFC 3339 with seconds, as metav1.Time is written. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Keys re-added to a queue after a delay, all cancelled at once when the controller stops. */
export class DelayedAdds {
  readonly #clock: Clock;
  readonly #add: (key: string) => void;
  readonly #pending = new Map<string, { readonly at: number; readonly cancel: () => void }>();

  constructor(clock: Clock, add: (key: string) => void) {
    this.#clock = clock;
    this.#add = add;
  }

  /** Adds `key` after `ms`; a key already waiting keeps the earlier time. */
  addAfter(key: string, ms: number): void {
    if (ms <= 0) {
      this.#add(key);
      return;
    }
    const at = this.#clock.now() + ms;
    const existing = this.#pending.get(key);
    if (existing !== undefined) {
      if (existing.at <= at) return;
      existing.cancel();
    }
    const cancel = this.#clock.after(ms, () => {
      this.#pending.delete(key);
      this.#add(key);
    });
    this.#pending.set(key, { at, cancel });
  }

  cancelAll(): void {
    for (const p of this.#pending.values()) p.cancel();
    this.#pending.clear();
  }
}
