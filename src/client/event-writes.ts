/**
 * What both event recorders share: event names that never repeat, cache keys kept as digests, and
 * writes sent in order.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../util/json.js';

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

/**
 * client-go's maxQueuedEvents: its event broadcasters (tools/record and tools/events) hand each event
 * to the watcher that writes them to the API server through a queue of this many, and drop an event
 * that finds it full (watch.NewLongQueueBroadcaster(maxQueuedEvents, watch.DropIfChannelFull)).
 */
export const maxQueuedEvents = 1000;

/**
 * Writes run one after another, in the order queued; a failure goes to `onError` and the next runs.
 * At most maxQueuedEvents wait: a recorder asks `drops` before it records an event and drops the
 * event then, as client-go does, so that a recorder falling behind (the scheduler's, writing an
 * event per pod one at a time) holds a bounded queue instead of every event it could not write yet.
 */
export class SerialWrites {
  #queue: Promise<void> = Promise.resolve();
  #waiting = 0;
  readonly #onError: ((err: unknown) => void) | undefined;

  constructor(onError?: (err: unknown) => void) {
    this.#onError = onError;
  }

  /**
   * Whether the event about `ref` is to be dropped, because as many writes wait as client-go's queue
   * holds; a dropped event is reported to `onError` in client-go's words ("unable to record event:
   * too many queued events, dropped event ..."), and the recorder goes on.
   */
  drops(ref: JsonObject, reason: string): boolean {
    if (this.#waiting < maxQueuedEvents) return false;
    const where = [ref['kind'], ref['namespace'], ref['name']].filter(
      (x): x is string => typeof x === 'string' && x !== '',
    );
    this.#onError?.(
      new Error(
        `unable to record event: too many queued events, dropped event ${JSON.stringify(reason)} about ${where.join('/')}`,
      ),
    );
    return true;
  }

  /** Queues `work` whether or not the queue is full (a recorder asks `drops` before this). */
  add(work: () => Promise<void>): void {
    this.#waiting++;
    this.#queue = this.#queue
      .then(() => {
        // Being written: no longer waiting.
        this.#waiting--;
        return work();
      })
      .catch((err: unknown) => this.#onError?.(err));
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
