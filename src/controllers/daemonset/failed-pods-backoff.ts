/**
 * The DaemonSet controller's failedPodsBackoff (upstream v1.27: flowcontrol.Backoff of 1 s doubling
 * to 15 min, per DaemonSet uid and node): a daemon pod that keeps failing on a node is deleted
 * (and replaced) at most once per backoff period, so the controller does not fight the kubelet in
 * a hot loop. An entry not updated for twice the maximum is forgotten.
 */
export class FailedPodsBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #entries = new Map<string, { backoff: number; lastUpdate: number }>();

  constructor(initialMs: number, maxMs: number) {
    this.#initialMs = initialMs;
    this.#maxMs = maxMs;
  }

  #expired(lastUpdate: number, now: number): boolean {
    return now - lastUpdate > 2 * this.#maxMs;
  }

  /** IsInBackOffSinceUpdate. */
  inBackoff(key: string, now: number): boolean {
    const e = this.#entries.get(key);
    if (e === undefined || this.#expired(e.lastUpdate, now)) return false;
    return now - e.lastUpdate < e.backoff;
  }

  /** The current backoff of `key` (0 when none). */
  get(key: string): number {
    return this.#entries.get(key)?.backoff ?? 0;
  }

  /** Next: the first failure waits the initial period, each further one twice as long. */
  next(key: string, now: number): void {
    const e = this.#entries.get(key);
    if (e === undefined || this.#expired(e.lastUpdate, now)) {
      this.#entries.set(key, { backoff: this.#initialMs, lastUpdate: now });
    } else {
      e.backoff = Math.min(2 * e.backoff, this.#maxMs);
      e.lastUpdate = now;
    }
    this.#gc(now);
  }

  #gc(now: number): void {
    for (const [k, e] of this.#entries) if (this.#expired(e.lastUpdate, now)) this.#entries.delete(k);
  }
}
