/**
 * Time helpers of the workload controllers over the project's one Clock (util/clock.ts: now() and
 * sleep(), `FakeClock` in tests): RFC 3339 timestamps and delayed re-queueing.
 */
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';

export { realClock };
export type { Clock };

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
    const abort = new AbortController();
    void this.#clock.sleep(ms, abort.signal).then(() => {
      if (abort.signal.aborted) return;
      this.#pending.delete(key);
      this.#add(key);
    });
    this.#pending.set(key, { at, cancel: () => abort.abort() });
  }

  cancelAll(): void {
    for (const p of this.#pending.values()) p.cancel();
    this.#pending.clear();
  }
}
