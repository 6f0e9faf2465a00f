/**
 * The one clock time-based behaviour reads (controllers, work queues, informers, leader election,
 * simulated nodes, the scheduler), so tests can drive time: `realClock` in production, `FakeClock`
 * in tests.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts; leaves no listener behind. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Calls `fn` once, `ms` from now (never synchronously), unless the returned function cancels it
   * first. A real timer does not hold the process open (delayed work-queue keys).
   */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  },
  after(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

interface Waiter {
  readonly at: number;
  readonly seq: number;
  readonly fire: () => void;
}

/**
 * A clock that moves only when told to (`advance`); sleeps and timers whose time is reached fire
 * then, earliest first.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #waiters = new Set<Waiter>();

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /**
   * How many sleeps and timers are pending (tests wait for a loop to be asleep, or a delayed key
   * to be waiting, before advancing).
   */
  get sleepers(): number {
    return this.#waiters.size;
  }

  /** When the earliest pending sleep or timer is due (undefined when none is). */
  nextAt(): number | undefined {
    let min: number | undefined;
    for (const w of this.#waiters) if (min === undefined || w.at < min) min = w.at;
    return min;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const entry: Waiter = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        fire: (): void => {
          this.#waiters.delete(entry);
          signal.removeEventListener('abort', entry.fire);
          resolve();
        },
      };
      this.#waiters.add(entry);
      signal.addEventListener('abort', entry.fire, { once: true });
      if (ms <= 0) entry.fire();
    });
  }

  after(ms: number, fn: () => void): () => void {
    const entry: Waiter = {
      at: this.#now + Math.max(0, ms),
      seq: this.#seq++,
      fire: (): void => {
        if (!this.#waiters.delete(entry)) return;
        fn();
      },
    };
    this.#waiters.add(entry);
    // Due already: fire as a real zero-delay timer would, after the caller's code has run.
    if (ms <= 0) queueMicrotask(entry.fire);
    return () => {
      this.#waiters.delete(entry);
    };
  }

  /** Moves time forward and fires every sleep and timer whose time has come, earliest first. */
  advance(ms: number): void {
    this.#now += Math.max(0, ms);
    const due = [...this.#waiters]
      .filter((w) => w.at <= this.#now)
      .sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const w of due) w.fire();
  }
}
