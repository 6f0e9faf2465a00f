/**
 * A de-duplicating work queue (client-go's workqueue in spirit): a key is queued at most once,
 * a key being processed that is added again is processed once more afterwards, a failing key is
 * retried after a per-key exponential backoff (5 ms doubling to 1000 s by default, reset when
 * the key succeeds), and a key can be re-queued after a delay of the caller's choosing.
 *
 * Waiting never leaks: every listener the queue adds to an AbortSignal is removed when its wait
 * ends, and delayed keys share one listener per signal. Delays (delayed adds, failure backoff)
 * wait on the queue's Clock (util/clock.ts), so tests drive them with a FakeClock.
 */
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { ItemExponentialBackoff } from './item-backoff.js';

export interface WorkQueueOptions {
  /** Per-key failure backoff (default: client-go's default item rate limiter). */
  readonly backoff?: ItemExponentialBackoff;
  /** Called with each failure of `process` (the key is retried after its backoff). */
  readonly onError?: (err: unknown, key: string) => void;
  /** What delayed adds wait on (default: the real clock). */
  readonly clock?: Clock;
}

/** A delayed add: its timer's cancel and the signal that cancels it. */
interface Delayed {
  readonly cancel: () => void;
  readonly at: number;
  readonly signal: AbortSignal;
}

export class WorkQueue {
  readonly #pending = new Set<string>();
  readonly #active = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #delayed = new Map<string, Delayed>();
  /** One abort listener per signal that has delayed keys, with those keys. */
  readonly #cancels = new Map<AbortSignal, { readonly keys: Set<string>; readonly onAbort: () => void }>();
  readonly #waiters = new Set<() => void>();
  /** Idle workers per signal, and the one abort listener that wakes them. */
  readonly #idleBySignal = new Map<
    AbortSignal,
    { readonly waiters: Set<() => void>; readonly onAbort: () => void }
  >();
  readonly #backoff: ItemExponentialBackoff;
  readonly #onError: ((err: unknown, key: string) => void) | undefined;
  readonly #clock: Clock;

  constructor(o: WorkQueueOptions = {}) {
    this.#backoff = o.backoff ?? new ItemExponentialBackoff();
    this.#onError = o.onError;
    this.#clock = o.clock ?? realClock;
  }

  /** Keys waiting to be processed (not counting delayed or active ones). */
  get length(): number {
    return this.#pending.size;
  }

  add(key: string): void {
    if (this.#active.has(key)) {
      this.#dirty.add(key);
      return;
    }
    this.#pending.add(key);
    for (const wake of [...this.#waiters]) wake();
  }

  /**
   * Adds `key` after `ms` on the queue's clock (unless `signal` aborts first). A key already
   * delayed keeps the earlier of its two times. The timer does not hold the process open.
   */
  addAfter(key: string, ms: number, signal: AbortSignal): void {
    if (signal.aborted) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.#clock.now() + ms;
    const existing = this.#delayed.get(key);
    if (existing !== undefined) {
      if (existing.at <= at) return;
      this.#cancelDelayed(key, existing);
    }
    const cancelTimer = this.#clock.after(ms, () => {
      const d = this.#delayed.get(key);
      if (d !== undefined) this.#cancelDelayed(key, d);
      this.add(key);
    });
    this.#delayed.set(key, { cancel: cancelTimer, at, signal });
    let cancel = this.#cancels.get(signal);
    if (cancel === undefined) {
      const keys = new Set<string>();
      const onAbort = (): void => {
        for (const k of [...keys]) {
          const d = this.#delayed.get(k);
          if (d !== undefined) this.#cancelDelayed(k, d);
        }
      };
      cancel = { keys, onAbort };
      this.#cancels.set(signal, cancel);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    cancel.keys.add(key);
  }

  /** Adds `key` after its backoff, counting one more failure of it. */
  addRateLimited(key: string, signal: AbortSignal): void {
    this.addAfter(key, this.#backoff.when(key), signal);
  }

  /** Resets `key`'s backoff (it succeeded). */
  forget(key: string): void {
    this.#backoff.forget(key);
  }

  /** Failures of `key` since it was last forgotten. */
  numRequeues(key: string): number {
    return this.#backoff.failures(key);
  }

  /**
   * Runs `process` for each key until `signal` aborts. `process` resolves undefined when done
   * with the key (its backoff is reset), or a delay after which to process it again; when it
   * throws, the key is retried after its backoff.
   */
  async run(process: (key: string) => Promise<number | undefined>, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const next = this.#pending.values().next();
      if (next.done === true) {
        await this.#idle(signal);
        continue;
      }
      const key = next.value;
      this.#pending.delete(key);
      this.#active.add(key);
      let retry: number | undefined;
      let failed = false;
      try {
        retry = await process(key);
      } catch (err) {
        failed = true;
        // Work cut short because the workers are stopping is not a failure worth reporting.
        if (!signal.aborted) this.#onError?.(err, key);
      }
      this.#active.delete(key);
      const again = this.#dirty.delete(key);
      if (failed) retry = this.#backoff.when(key);
      else if (retry === undefined) this.#backoff.forget(key);
      if (again) this.add(key);
      else if (retry !== undefined) this.addAfter(key, retry, signal);
    }
  }

  /**
   * Until a key is added or `signal` aborts. Idle workers of one signal share a single abort
   * listener, so many workers do not pile listeners onto it.
   */
  #idle(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let idle = this.#idleBySignal.get(signal);
      if (idle === undefined) {
        const waiters = new Set<() => void>();
        const onAbort = (): void => {
          for (const w of [...waiters]) w();
        };
        idle = { waiters, onAbort };
        this.#idleBySignal.set(signal, idle);
        signal.addEventListener('abort', onAbort, { once: true });
      }
      const entry = idle;
      const done = (): void => {
        this.#waiters.delete(done);
        entry.waiters.delete(done);
        if (entry.waiters.size === 0) {
          signal.removeEventListener('abort', entry.onAbort);
          this.#idleBySignal.delete(signal);
        }
        resolve();
      };
      this.#waiters.add(done);
      entry.waiters.add(done);
    });
  }

  #cancelDelayed(key: string, d: Delayed): void {
    d.cancel();
    this.#delayed.delete(key);
    const cancel = this.#cancels.get(d.signal);
    if (cancel === undefined) return;
    cancel.keys.delete(key);
    if (cancel.keys.size === 0) {
      d.signal.removeEventListener('abort', cancel.onAbort);
      this.#cancels.delete(d.signal);
    }
  }
}
