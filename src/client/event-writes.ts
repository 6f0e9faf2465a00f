/**
 * What both event recorders share: event names that never repeat, cache keys kept as digests, and
 * writes sent in order.
 */
import { createHash } from 'node:crypto';

/** The last nanosecond stamp handed out by any namer of this process. */
let lastNs = 0n;

/**
 * `<name>.<hex nanoseconds>` (client-go's event names). The stamp is the clock's millisecond plus
 * the sub-millisecond part of the process's high-resolution timer, and only moves forward across
 * every recorder of the process: the scheduler's and a kubelet's events about one pod in the same
 * millisecond (or under a frozen test clock) never share a name, and another process's are as
 * unlikely to as client-go's.
 */
export class EventNamer {
  next(name: string, nowMs: number): string {
    const ns = BigInt(nowMs) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    lastNs = ns > lastNs ? ns : lastNs + 1n;
    return `${name}.${lastNs.toString(16)}`;
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

/**
 * A recorder's cache key: a SHA-1 digest of `parts`, each ended by NUL (none holds one). A cache
 * entry per event, at thousands of events, costs a key's text many times over; 28 characters do.
 */
export function cacheKey(parts: readonly string[]): string {
  const h = createHash('sha1');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('base64');
}
