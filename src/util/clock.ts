/**
 * The one clock time-based behaviour reads (controllers, leader election, simulated nodes), so
 * tests can drive time: `realClock` in production, `FakeClock` in tests.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts; leaves no listener behind. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
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
};

/** A clock that moves only when told to (`advance`); sleepers wake when their time is reached. */
export class FakeClock implements Clock {
  #now: number;
  readonly #sleepers = new Set<{ readonly at: number; readonly wake: () => void }>();

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** How many sleeps are pending (tests wait for a loop to be asleep before advancing). */
  get sleepers(): number {
    return this.#sleepers.size;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const entry = {
        at: this.#now + Math.max(0, ms),
        wake: (): void => {
          this.#sleepers.delete(entry);
          signal.removeEventListener('abort', entry.wake);
          resolve();
        },
      };
      this.#sleepers.add(entry);
      signal.addEventListener('abort', entry.wake, { once: true });
      if (ms <= 0) entry.wake();
    });
  }

  /** Moves time forward and wakes every sleeper whose time has come. */
  advance(ms: number): void {
    this.#now += ms;
    for (const s of [...this.#sleepers]) if (s.at <= this.#now) s.wake();
  }
}
