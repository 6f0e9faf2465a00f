/**
 * Per-key exponential backoff: client-go's default item rate limiter (`base * 2^failures`, capped),
 * as used by the work queue to space out retries of a failing key. `forget` starts a key afresh.
 */
export interface ItemBackoffOptions {
  /** Delay after the first failure (default 5 ms). */
  readonly baseMs?: number;
  /** Upper bound of the delay (default 1000 s). */
  readonly maxMs?: number;
}

export class ItemExponentialBackoff {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #failures = new Map<string, number>();

  constructor(o: ItemBackoffOptions = {}) {
    this.#baseMs = o.baseMs ?? 5;
    this.#maxMs = o.maxMs ?? 1_000_000;
  }

  /** Counts one more failure of `key` and returns how long to wait before retrying it. */
  when(key: string): number {
    const n = this.#failures.get(key) ?? 0;
    this.#failures.set(key, n + 1);
    return Math.min(this.#baseMs * 2 ** n, this.#maxMs);
  }

  /** Failures counted for `key` since it was last forgotten. */
  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  forget(key: string): void {
    this.#failures.delete(key);
  }
}
