/** What both event recorders share: event names that never repeat, and writes sent in order. */

/**
 * `<name>.<hex nanoseconds>` (client-go's event names); the nanoseconds only move forward, so two
 * events of one millisecond (or of a frozen test clock) never share a name.
 */
export class EventNamer {
  #lastNs = 0n;

  next(name: string, nowMs: number): string {
    const ns = BigInt(nowMs) * 1_000_000n;
    this.#lastNs = ns > this.#lastNs ? ns : this.#lastNs + 1n;
    return `${name}.${this.#lastNs.toString(16)}`;
  }
}

/** Writes run one after another, in the order queued; a failure goes to `onError` and the next runs. */
export class SerialWrites {
  #queue: Promise<void> = Promise.resolve();
  readonly #onError: ((err: unknown) => void) | undefined;

  constructor(onError?: (err: unknown) => void) {
    this.#onError = onError;
  }

  add(work: () => Promise<void>): void {
    this.#queue = this.#queue.then(work).catch((err: unknown) => this.#onError?.(err));
  }

  /** Resolves when every write queued so far has finished (or failed). */
  flushed(): Promise<void> {
    return this.#queue;
  }
}
