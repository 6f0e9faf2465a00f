/**
 * A de-duplicating work queue (client-go's workqueue in spirit): a key is queued at most once,
 * a key being processed that is added again is processed once more afterwards, and failures are
 * retried after a delay.
 */
export class WorkQueue {
  readonly #pending = new Set<string>();
  readonly #active = new Set<string>();
  readonly #dirty = new Set<string>();
  #wake: (() => void) | undefined;

  add(key: string): void {
    if (this.#active.has(key)) {
      this.#dirty.add(key);
      return;
    }
    this.#pending.add(key);
    this.#wake?.();
  }

  addAfter(key: string, ms: number, signal: AbortSignal): void {
    const t = setTimeout(() => this.add(key), ms);
    t.unref();
    signal.addEventListener('abort', () => clearTimeout(t), { once: true });
  }

  /** Runs `process` for each key until `signal` aborts; `process` returns a retry delay or undefined. */
  async run(process: (key: string) => Promise<number | undefined>, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const next = this.#pending.values().next();
      if (next.done === true) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        this.#wake = undefined;
        continue;
      }
      const key = next.value;
      this.#pending.delete(key);
      this.#active.add(key);
      let retry: number | undefined;
      try {
        retry = await process(key);
      } catch {
        retry = 1000;
      }
      this.#active.delete(key);
      if (this.#dirty.delete(key)) this.add(key);
      else if (retry !== undefined && !signal.aborted) this.addAfter(key, retry, signal);
    }
  }
}
