/**
 * One watch served by the watch cache: the window's events after its start, then live ones, for
 * keys under its prefix (or its one key). Its queue is bounded: a consumer that falls further
 * behind is cut off (`onStalled`), as upstream's cacher terminates a blocked cacheWatcher, instead
 * of holding events for it without bound.
 *
 * It is read either as an async iterator or, without a promise per event, by push: `listen` sets
 * a callback called (synchronously, from the fan-out) when events arrive or the watch ends, and
 * the consumer `take`s what is queued. Events count against the bound until taken, either way.
 */
import type { ObjectWatchEvent } from '../interfaces.js';
import type { WindowEntry } from './event-window.js';

type Waiter = (result: IteratorResult<ObjectWatchEvent>) => void;

const DONE: IteratorResult<ObjectWatchEvent> = { done: true, value: undefined };

export interface CacheWatcherOptions {
  readonly key: string;
  readonly recursive: boolean;
  /** Only events with a revision above this are delivered. */
  readonly after: number;
  readonly maxQueued: number;
  readonly signal?: AbortSignal | undefined;
  readonly onStalled?: (() => void) | undefined;
  readonly unregister: (w: CacheWatcher) => void;
}

export class CacheWatcher implements AsyncIterableIterator<ObjectWatchEvent> {
  readonly #o: CacheWatcherOptions;
  #queue: ObjectWatchEvent[] = [];
  #head = 0;
  #waiters: Waiter[] = [];
  #done = false;
  #listener: (() => void) | undefined;

  constructor(options: CacheWatcherOptions) {
    this.#o = options;
    const signal = options.signal;
    if (signal !== undefined) {
      if (signal.aborted) this.#finish(false);
      else signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  get ended(): boolean {
    return this.#done;
  }

  /** Ended, and every event queued before the end taken. */
  get finished(): boolean {
    return this.#done && this.#head === this.#queue.length;
  }

  /** Events queued and not yet taken. */
  get queued(): number {
    return this.#queue.length - this.#head;
  }

  /** Push mode: `listener` is called when events are queued or the watch ends. */
  listen(listener: (() => void) | undefined): void {
    this.#listener = listener;
  }

  /** The next queued event, if any (push mode). */
  take(): ObjectWatchEvent | undefined {
    return this.#shift();
  }

  readonly #onAbort = (): void => {
    this.#finish(false);
  };

  #wants(entry: WindowEntry): boolean {
    if (entry.revision <= this.#o.after) return false;
    return this.#o.recursive ? entry.key.startsWith(this.#o.key) : entry.key === this.#o.key;
  }

  /** Takes events in revision order (the window's backlog first, then each live one). */
  offer(entries: readonly WindowEntry[]): void {
    if (this.#done) return;
    if (this.#queue.length - this.#head > this.#o.maxQueued) {
      this.#finish(false);
      this.#o.onStalled?.();
      return;
    }
    // A consumer is told when its queue stops being empty; it takes until empty before waiting.
    const wasEmpty = this.#head === this.#queue.length;
    let added = false;
    for (const entry of entries) {
      if (!this.#wants(entry)) continue;
      this.#queue.push(entry.event);
      added = true;
    }
    if (added && (wasEmpty || this.#waiters.length > 0)) this.#wake();
  }

  /** Takes one live event (the fan-out's path: no array per event). */
  offerOne(entry: WindowEntry): void {
    if (this.#done) return;
    if (this.#queue.length - this.#head > this.#o.maxQueued) {
      this.#finish(false);
      this.#o.onStalled?.();
      return;
    }
    if (!this.#wants(entry)) return;
    const wasEmpty = this.#head === this.#queue.length;
    this.#queue.push(entry.event);
    if (wasEmpty || this.#waiters.length > 0) this.#wake();
  }

  /** Ends the watch; with `drain`, events already queued are still delivered. */
  close(drain: boolean): void {
    this.#finish(drain);
  }

  next(): Promise<IteratorResult<ObjectWatchEvent>> {
    const ev = this.#shift();
    if (ev !== undefined) return Promise.resolve({ done: false, value: ev });
    if (this.#done) return Promise.resolve(DONE);
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
    });
  }

  return(): Promise<IteratorResult<ObjectWatchEvent>> {
    this.#finish(false);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ObjectWatchEvent> {
    return this;
  }

  #shift(): ObjectWatchEvent | undefined {
    if (this.#head === this.#queue.length) return undefined;
    const ev = this.#queue[this.#head++];
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    return ev;
  }

  #wake(): void {
    if (this.#waiters.length === 0) {
      this.#listener?.();
      return;
    }
    while (this.#waiters.length > 0) {
      const ev = this.#shift();
      if (ev === undefined && !this.#done) return;
      this.#waiters.shift()!(ev === undefined ? DONE : { done: false, value: ev });
    }
  }

  #finish(drain: boolean): void {
    if (this.#done) return;
    this.#done = true;
    if (!drain) {
      this.#queue = [];
      this.#head = 0;
    }
    this.#o.signal?.removeEventListener('abort', this.#onAbort);
    this.#o.unregister(this);
    this.#wake();
  }
}
