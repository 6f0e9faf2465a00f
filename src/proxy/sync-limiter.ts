/**
 * How often the proxy may sync (upstream BoundedFrequencyRunner's limiter): a token bucket that
 * holds `burst` syncs (kube-proxy: 2) and gains one every `minIntervalMs`
 * (`--iptables-min-sync-period`). Two changes in quick succession are written at once, one after
 * the other; a stream of changes is then written once per interval, batched.
 */
import type { Clock } from '../util/clock.js';

export const burstSyncs = 2;

export class SyncLimiter {
  readonly #intervalMs: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #at: number;

  constructor(intervalMs: number, clock: Clock, burst = burstSyncs) {
    this.#intervalMs = intervalMs;
    this.#burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#at = clock.now();
  }

  #refill(): void {
    const now = this.#clock.now();
    if (this.#intervalMs <= 0) this.#tokens = this.#burst;
    else this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#at) / this.#intervalMs);
    this.#at = now;
  }

  /** Takes a sync's token now when there is one; else how long until there is (ms). */
  tryTake(): number {
    this.#refill();
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.#tokens) * this.#intervalMs);
  }

  /** Waits for a token and takes it; returns early, without one, when `signal` aborts. */
  async take(signal: AbortSignal): Promise<void> {
    for (let wait = this.tryTake(); wait > 0 && !signal.aborted; wait = this.tryTake()) {
      await this.#clock.sleep(wait, signal);
    }
  }
}
