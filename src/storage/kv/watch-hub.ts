/**
 * In-process fan-out of committed events to watchers, plus gap-free catch-up from history.
 *
 * A backend that is the only writer calls `publish` right after each commit, with every event of
 * the commit. A revision may hold several events (a transaction writing several keys); they are
 * always committed, published and read from history together, so a watcher tracks whole revisions:
 * everything below `#nextRev` has been delivered (or was not wanted). A watch starting at a past
 * revision registers its live listener first (live events are buffered), replays history page by
 * page (pages never split a revision) as the consumer pulls, then drains the buffer skipping the
 * revisions it already delivered. A watcher whose consumer falls more than `maxQueuedEvents` behind
 * is closed (its `onStalled` callback tells the consumer, which may not be pulling).
 */
import type { KeySpan } from './key-range.js';
import { keySpan, spanHas } from './key-range.js';
import type { KvEvent, WatchOptions } from './types.js';

export interface WatchHistorySource {
  /**
   * Committed events with revision >= `from` whose key is in `span`, in revision order (op order
   * within a revision), each with prevKv when the key existed before: up to `limit` of them, plus
   * the remaining events of the last one's revision, so that a page never splits a revision. Throws
   * KvCompactedError when `from` is no longer available.
   */
  readHistory(from: number, span: KeySpan, limit: number): readonly KvEvent[];
}

export interface WatchHubOptions {
  /**
   * Events read from history per step of a catch-up replay (default 500; a step may read more to
   * finish a revision).
   */
  readonly replayPageSize?: number | undefined;
  /**
   * Events a watcher may hold undelivered (default 10,000): a watcher whose consumer falls further
   * behind is closed (its iterator ends) instead of buffering without bound, as upstream's watch
   * cache terminates watchers that cannot keep up; clients watch again from their last revision.
   */
  readonly maxQueuedEvents?: number | undefined;
}

interface Waiter {
  readonly resolve: (result: IteratorResult<KvEvent>) => void;
  readonly reject: (error: Error) => void;
}

const DONE: IteratorResult<KvEvent> = { done: true, value: undefined };

class Watcher implements AsyncIterableIterator<KvEvent> {
  readonly #span: KeySpan;
  readonly #withPrevKv: boolean;
  readonly #source: WatchHistorySource;
  readonly #pageSize: number;
  readonly #maxQueued: number;
  readonly #unregister: (w: Watcher) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #onStalled: (() => void) | undefined;
  readonly #onProgress: ((revision: number) => void) | undefined;
  #queue: KvEvent[] = [];
  #head = 0;
  /** Live events that arrived while history was still being replayed. */
  #pendingLive: KvEvent[] = [];
  /** Next revision to read from history, or null once the watcher is live. */
  #replayFrom: number | null;
  /** Every event below this revision has been queued (or is not wanted); later ones are new. */
  #nextRev: number;
  /** Pending `next()` calls, oldest first. */
  #waiters: Waiter[] = [];
  #done = false;
  /** Set by `fail`: what `next()` rejects with from then on. */
  #error: Error | undefined;

  constructor(
    options: WatchOptions,
    startRevision: number,
    currentRevision: number,
    source: WatchHistorySource,
    pageSize: number,
    maxQueued: number,
    unregister: (w: Watcher) => void,
  ) {
    this.#span = keySpan(options.key, options.end);
    this.#withPrevKv = options.prevKv === true;
    this.#source = source;
    this.#pageSize = pageSize;
    this.#maxQueued = maxQueued;
    this.#unregister = unregister;
    this.#nextRev = startRevision;
    this.#replayFrom = startRevision <= currentRevision ? startRevision : null;
    this.#signal = options.signal;
    this.#onStalled = options.onStalled;
    this.#onProgress = options.onProgress;
    if (this.#signal !== undefined) {
      if (this.#signal.aborted) this.#finish(false);
      else this.#signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  get ended(): boolean {
    return this.#done;
  }

  readonly #onAbort = (): void => {
    this.#finish(false);
  };

  /** Takes the events of one commit (whole revisions, in order). */
  offer(events: readonly KvEvent[]): void {
    if (this.#done) return;
    // A consumer still this far behind from earlier commits is stalled: end the watch rather than
    // hold events for it. (Checked before taking this commit, so one large commit alone never
    // closes a watcher that keeps up.)
    const backlog = this.#replayFrom !== null ? this.#pendingLive.length : this.#queue.length - this.#head;
    if (backlog > this.#maxQueued) {
      this.#stalled();
      return;
    }
    if (this.#replayFrom !== null) {
      for (const ev of events) if (spanHas(this.#span, ev.kv.key)) this.#pendingLive.push(ev);
      return;
    }
    this.#enqueueNew(events);
    if (this.#head === this.#queue.length) this.#progress();
    else this.#wake();
  }

  /** With nothing queued and the consumer waiting, it has had every revision below `#nextRev`. */
  #progress(): void {
    if (this.#onProgress !== undefined && this.#waiters.length > 0 && this.#replayFrom === null) {
      this.#onProgress(this.#nextRev - 1);
    }
  }

  #stalled(): void {
    this.#finish(false);
    this.#onStalled?.();
  }

  /** Ends the watch; `drain` keeps already queued events deliverable (used on store close). */
  close(drain: boolean): void {
    this.#finish(drain);
  }

  /** Ends the watch with `error`: queued events are dropped and `next()` rejects with it. */
  fail(error: Error): void {
    if (this.#done) return;
    this.#error = error;
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#finish(false);
    for (const w of waiters) w.reject(error);
  }

  next(): Promise<IteratorResult<KvEvent>> {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    try {
      if (this.#head === this.#queue.length && this.#replayFrom !== null && !this.#done) {
        this.#replayStep();
      }
    } catch (error) {
      this.#finish(false);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const ev = this.#shift();
    if (ev !== undefined) return Promise.resolve({ done: false, value: ev });
    if (this.#done) return Promise.resolve(DONE);
    const waiting = new Promise<IteratorResult<KvEvent>>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#progress();
    return waiting;
  }

  return(): Promise<IteratorResult<KvEvent>> {
    this.#finish(false);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<KvEvent> {
    return this;
  }

  #replayStep(): void {
    const from = this.#replayFrom;
    if (from === null) return;
    const page = this.#source.readHistory(from, this.#span, this.#pageSize);
    this.#enqueueNew(page);
    if (page.length >= this.#pageSize) {
      // The page ends on a whole revision: continue after it.
      this.#replayFrom = this.#nextRev;
      return;
    }
    // History is exhausted: every revision it held is queued, and the buffered live events of
    // those revisions are duplicates (a revision is either wholly in history or wholly newer).
    this.#replayFrom = null;
    const buffered = this.#pendingLive;
    this.#pendingLive = [];
    this.#enqueueNew(buffered);
  }

  /** Queues the events of `events` (in revision order) at or after `#nextRev`, then moves it on. */
  #enqueueNew(events: readonly KvEvent[]): void {
    const last = events[events.length - 1];
    if (last === undefined) return;
    const from = this.#nextRev;
    for (const ev of events) {
      if (ev.kv.modRevision >= from && spanHas(this.#span, ev.kv.key)) this.#enqueue(ev);
    }
    this.#nextRev = Math.max(from, last.kv.modRevision + 1);
  }

  #enqueue(ev: KvEvent): void {
    this.#queue.push(this.#withPrevKv || ev.prevKv === undefined ? ev : { type: ev.type, kv: ev.kv });
  }

  #shift(): KvEvent | undefined {
    if (this.#head === this.#queue.length) return undefined;
    const ev = this.#queue[this.#head++];
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    return ev;
  }

  #wake(): void {
    while (this.#waiters.length > 0) {
      const ev = this.#shift();
      if (ev === undefined && !this.#done) return;
      const waiter = this.#waiters.shift()!;
      waiter.resolve(ev === undefined ? DONE : { done: false, value: ev });
    }
  }

  #finish(drain: boolean): void {
    if (this.#done) return;
    this.#done = true;
    this.#replayFrom = null;
    this.#pendingLive = [];
    if (!drain) {
      this.#queue = [];
      this.#head = 0;
    }
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#unregister(this);
    this.#wake();
  }
}

export class WatchHub {
  readonly #watchers = new Set<Watcher>();
  readonly #pageSize: number;
  readonly #maxQueued: number;

  constructor(options: WatchHubOptions = {}) {
    this.#pageSize = Math.max(1, options.replayPageSize ?? 500);
    this.#maxQueued = Math.max(1, options.maxQueuedEvents ?? 10_000);
  }

  /** Events a watcher may hold undelivered before it is closed. */
  get maxQueuedEvents(): number {
    return this.#maxQueued;
  }

  /** Number of active watchers (for metrics and tests). */
  get size(): number {
    return this.#watchers.size;
  }

  /**
   * Registers a watcher now (so no later commit is missed). The caller has already validated
   * `options.startRevision` against compaction; `currentRevision` is the last committed revision.
   */
  watch(options: WatchOptions, currentRevision: number, source: WatchHistorySource): AsyncIterable<KvEvent> {
    const start =
      options.startRevision !== undefined && options.startRevision > 0
        ? options.startRevision
        : currentRevision + 1;
    const watcher = new Watcher(
      options,
      start,
      currentRevision,
      source,
      this.#pageSize,
      this.#maxQueued,
      (w) => this.#watchers.delete(w),
    );
    if (!watcher.ended) this.#watchers.add(watcher);
    return watcher;
  }

  /**
   * Delivers the events of one commit (in revision order, every event of each revision, a
   * revision's events in op order) to every matching watcher.
   */
  publish(events: readonly KvEvent[]): void {
    if (events.length === 0) return;
    for (const watcher of this.#watchers) watcher.offer(events);
  }

  /** Ends every watch with `error` (a restore: what they followed is gone). */
  failAll(error: Error): void {
    for (const watcher of [...this.#watchers]) watcher.fail(error);
  }

  /** Ends every watch; events already queued are still delivered. */
  closeAll(): void {
    for (const watcher of [...this.#watchers]) watcher.close(true);
  }
}
