/**
 * A token bucket as client-go's flowcontrol token-bucket rate limiter (golang.org/x/time/rate):
 * it starts full with `burst` tokens, refills at `qps` tokens a second up to `burst`, and
 * `tryAccept` takes one token when a whole one is there. A clock that goes backwards refills
 * nothing.
 */
export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  #tokens: number;
  /** Milliseconds; undefined before the first request (the bucket is then full). */
  #last: number | undefined;

  constructor(qps: number, burst: number) {
    this.#qps = qps;
    this.#burst = burst;
    this.#tokens = burst;
    this.#last = undefined;
  }

  tryAccept(nowMs: number): boolean {
    const last = this.#last === undefined || nowMs < this.#last ? nowMs : this.#last;
    const tokens = Math.min(this.#burst, this.#tokens + ((nowMs - last) / 1000) * this.#qps);
    if (tokens < 1) return false;
    this.#tokens = tokens - 1;
    this.#last = nowMs;
    return true;
  }
}
