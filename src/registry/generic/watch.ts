/**
 * Watch over the generic store, with kube-apiserver v1.27's starting points:
 *  - resourceVersion "" (no sendInitialEvents): the state at the most recent revision (a
 *    consistent read) as ADDED events, then changes after it; "0": any recent state, then changes;
 *  - a resourceVersion N: changes after N (410 Expired as an ERROR event once N is compacted);
 *  - WatchList (gate `WatchList`): `sendInitialEvents=true&resourceVersionMatch=NotOlderThan`
 *    streams a state at least as new as N (or a consistent read with no N) as ADDED events, then,
 *    when bookmarks were allowed, one BOOKMARK annotated `k8s.io/initial-events-end: "true"` with
 *    the state's resourceVersion, then changes after it; `sendInitialEvents=false` starts at N (at
 *    the most recent revision for "", any recent one for "0") without a state.
 * Reads come from the resource's watch cache once it is filled, else from storage. Events are
 * filtered through the request's selectors (an object leaving the selection is DELETED, one
 * entering it ADDED), as kube-apiserver does.
 */
import { apiErrors, StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { CacheWatcher } from '../../storage/cacher/cache-watcher.js';
import { StorageError } from '../../storage/errors.js';
import type { ObjectWatchEvent, ObjectWatchOptions } from '../../storage/interfaces.js';
import type { WatchRequest } from '../options.js';
import { waitUntilFresh } from './freshness.js';
import type { Predicate } from './predicate.js';
import { buildPredicate } from './predicate.js';
import { parseResourceVersion, validateListRequest } from './resource-version.js';
import type { GenericStore } from './store.js';
import type { FeatureGateReader } from '../strategy.js';
import type { JsonObject } from '../../util/json.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  readonly type: WatchEventType;
  /** For BOOKMARK: only `metadata` (resourceVersion, annotations); the handler adds kind/apiVersion. */
  readonly object: JsonObject;
}

/** The annotation of the BOOKMARK that ends a WatchList's initial events (KEP-3157). */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

function errorEvent(err: StatusError): WatchEvent {
  return { type: 'ERROR', object: err.status as unknown as JsonObject };
}

/** Where a watch starts: the state to send first (if any) and the revision changes follow. */
interface Start {
  readonly initial: readonly KubeObject[];
  readonly after: number;
  /** Send the initial-events-end BOOKMARK after `initial`. */
  readonly endBookmark: boolean;
  /** An error upstream reports as the stream's only event (the watch was accepted). */
  readonly error?: StatusError;
}

/**
 * Where a watch reads: the watch cache once it is filled, else storage. `state` is the selected
 * objects with the revision they are current at; `fresh` waits until that revision reaches the
 * given one (3 s, then upstream's 504).
 */
interface Reader {
  /** The revision the reader is current at ("any" recent state). */
  revision(): Promise<number>;
  state(): Promise<{ items: readonly KubeObject[]; revision: number }>;
  fresh(revision: number): Promise<void>;
  watch(options: ObjectWatchOptions): AsyncIterable<ObjectWatchEvent>;
}

async function readerFor(
  store: GenericStore,
  namespace: string,
  req: WatchRequest,
  predicate: Predicate,
): Promise<Reader> {
  const cache = await store.watchCache();
  const signal = { signal: req.signal };
  if (cache !== undefined) {
    const prefix = store.prefix(namespace);
    const select = predicate.everything ? undefined : (o: KubeObject) => predicate.matches(o);
    return {
      revision: () => cache.currentRevision(),
      state: () => Promise.resolve(cache.initialState(prefix, select)),
      fresh: async (revision) => {
        await waitUntilFresh(cache, revision, signal);
      },
      watch: (options) => cache.watch(options),
    };
  }
  return {
    revision: () => store.storage.currentRevision(),
    state: async () => {
      const list = await store.list(namespace, {
        ...(req.labelSelector !== undefined ? { labelSelector: req.labelSelector } : {}),
        ...(req.fieldSelector !== undefined ? { fieldSelector: req.fieldSelector } : {}),
      });
      return { items: list.items, revision: Number(list.resourceVersion) };
    },
    fresh: async (revision) => {
      await waitUntilFresh(store.storage, revision, signal);
    },
    watch: (options) => store.storage.watch(options),
  };
}

/** The most recent revision, read from storage: a consistent starting point. */
async function latest(store: GenericStore, reader: Reader): Promise<number> {
  const revision = await store.storage.currentRevision();
  await reader.fresh(revision);
  return revision;
}

async function watchListStart(
  store: GenericStore,
  reader: Reader,
  req: WatchRequest,
  rv: string,
): Promise<Start> {
  if (req.sendInitialEvents !== true) {
    // No state: start at the given revision, the most recent one for "", any recent one for "0".
    const after =
      rv === ''
        ? await latest(store, reader)
        : rv === '0'
          ? await reader.revision()
          : parseResourceVersion(rv);
    return { initial: [], after, endBookmark: false };
  }
  try {
    if (rv === '') await latest(store, reader);
    else if (rv !== '0') await reader.fresh(parseResourceVersion(rv));
  } catch (err) {
    // Upstream's cacher answers this one inside the accepted watch (newErrWatcher).
    if (err instanceof StatusError) return { initial: [], after: 0, endBookmark: false, error: err };
    throw err;
  }
  const state = await reader.state();
  return { initial: state.items, after: state.revision, endBookmark: req.allowWatchBookmarks === true };
}

async function plainStart(store: GenericStore, reader: Reader, rv: string): Promise<Start> {
  if (rv === '' || rv === '0') {
    // "": the state at the most recent revision; "0": any recent state.
    if (rv === '') await latest(store, reader);
    const state = await reader.state();
    return { initial: state.items, after: state.revision, endBookmark: false };
  }
  const after = parseResourceVersion(rv);
  await reader.fresh(after);
  return { initial: [], after, endBookmark: false };
}

/** The event a watcher with `predicate` sees for a storage event, if any. */
export function filterEvent(ev: ObjectWatchEvent, predicate: Predicate): WatchEvent | undefined {
  const now = predicate.matches(ev.object);
  if (ev.type === 'ADDED') return now ? { type: 'ADDED', object: ev.object } : undefined;
  const before = ev.prevObject !== undefined && predicate.matches(ev.prevObject);
  if (ev.type === 'DELETED') return before || now ? { type: 'DELETED', object: ev.object } : undefined;
  if (now && before) return { type: 'MODIFIED', object: ev.object };
  if (now) return { type: 'ADDED', object: ev.object };
  if (before && ev.prevObject !== undefined) {
    const gone = { ...ev.prevObject, metadata: { ...ev.prevObject.metadata } };
    gone.metadata.resourceVersion = ev.object.metadata.resourceVersion!;
    return { type: 'DELETED', object: gone };
  }
  return undefined;
}

/** The ERROR event that ends a watch whose storage watch failed after `after`. */
function failure(err: unknown, after: number): WatchEvent {
  if (err instanceof StorageError && err.code === 'Expired') {
    return errorEvent(apiErrors.resourceExpired(`too old resource version: ${after} (${err.revision})`));
  }
  return errorEvent(err instanceof StatusError ? err : apiErrors.internal(err));
}

type Phase = 'start' | 'live' | 'done';

/** Storage-watch events a feed reads ahead of its consumer. */
const storageReadAhead = 1024;

/**
 * An open watch, read by push: `listen` sets a callback called when `take` may have something new
 * or the watch ended; `take` returns the next event, undefined when none is ready (then `done`
 * tells whether one ever will be). Served from the watch cache, an event costs no promise: the
 * cache's fan-out queues it in this watch's CacheWatcher and calls the callback, and `take` reads
 * it from there, so events not yet taken count against the cache's slow-watcher bound as before.
 * From storage (the cache not ready, or too old a start) events are read ahead of the consumer
 * (storageReadAhead), so a flush takes every event that came, not one per flush round. The state
 * (and a WatchList's initial-events-end BOOKMARK) comes first; the live watch opens once it is
 * taken. Also an AsyncIterable, for callers that pull.
 */
export class WatchFeed implements AsyncIterable<WatchEvent> {
  readonly #start: Start;
  readonly #predicate: Predicate;
  readonly #open: () => AsyncIterable<ObjectWatchEvent>;
  readonly #signal: AbortSignal;
  #phase: Phase = 'start';
  #next = 0;
  #bookmarkSent = false;
  #cache: CacheWatcher | undefined;
  #iterator: AsyncIterator<ObjectWatchEvent> | undefined;
  #pulling = false;
  #liveEnded = false;
  /** Events pulled from a storage watch and not taken yet (at most storageReadAhead). */
  #received: ObjectWatchEvent[] = [];
  #receivedHead = 0;
  /** An ERROR to send once everything before it was taken. */
  #last: WatchEvent | undefined;
  #listener: (() => void) | undefined;
  readonly #notify = (): void => {
    this.#listener?.();
  };

  constructor(
    start: Start,
    predicate: Predicate,
    open: () => AsyncIterable<ObjectWatchEvent>,
    signal: AbortSignal,
  ) {
    this.#start = start;
    this.#predicate = predicate;
    this.#open = open;
    this.#signal = signal;
  }

  /** Sets the callback for "events may be ready, or the watch ended" (synchronous, from fan-out). */
  listen(listener: (() => void) | undefined): void {
    this.#listener = listener;
  }

  /** Nothing more will come. */
  get done(): boolean {
    return this.#phase === 'done' && this.#last === undefined;
  }

  /** The next event, or undefined when none is ready now. */
  take(): WatchEvent | undefined {
    if (this.#phase === 'start') {
      const start = this.#start;
      if (start.error !== undefined) {
        this.#phase = 'done';
        return errorEvent(start.error);
      }
      const object = start.initial[this.#next];
      if (object !== undefined) {
        this.#next++;
        return { type: 'ADDED', object };
      }
      if (start.endBookmark && !this.#bookmarkSent) {
        this.#bookmarkSent = true;
        return {
          type: 'BOOKMARK',
          object: {
            metadata: {
              resourceVersion: String(start.after),
              annotations: { [initialEventsEndAnnotation]: 'true' },
            },
          },
        };
      }
      this.#openLive();
    }
    if (this.#phase === 'live') {
      const out = this.#cache !== undefined ? this.#fromCache(this.#cache) : this.#fromStorage();
      if (out !== undefined) return out;
    }
    if (this.#phase === 'done') {
      const last = this.#last;
      this.#last = undefined;
      return last;
    }
    return undefined;
  }

  /** Stops the watch (events not yet taken are dropped). */
  close(): void {
    if (this.#phase === 'done') return;
    this.#phase = 'done';
    this.#last = undefined;
    this.#cache?.listen(undefined);
    void this.#cache?.return();
    void this.#iterator?.return?.();
  }

  #openLive(): void {
    this.#phase = 'live';
    if (this.#signal.aborted) {
      this.#phase = 'done';
      return;
    }
    try {
      const live = this.#open();
      if (live instanceof CacheWatcher) {
        this.#cache = live;
        live.listen(this.#notify);
      } else {
        this.#iterator = live[Symbol.asyncIterator]();
      }
    } catch (err) {
      this.#phase = 'done';
      if (!this.#signal.aborted) this.#last = failure(err, this.#start.after);
    }
  }

  #filter(ev: ObjectWatchEvent): WatchEvent | undefined {
    // Everything selected: the storage event is the watch event (no object per watcher).
    // ('in': storage's events decode their previous object only when it is read.)
    if (this.#predicate.everything && (ev.type !== 'MODIFIED' || 'prevObject' in ev)) return ev;
    return filterEvent(ev, this.#predicate);
  }

  #fromCache(cache: CacheWatcher): WatchEvent | undefined {
    for (;;) {
      const ev = cache.take();
      if (ev === undefined) {
        if (cache.finished) this.#phase = 'done';
        return undefined;
      }
      const out = this.#filter(ev);
      if (out !== undefined) return out;
    }
  }

  #fromStorage(): WatchEvent | undefined {
    for (;;) {
      const ev = this.#received[this.#receivedHead];
      if (ev === undefined) break;
      this.#receivedHead++;
      if (this.#receivedHead === this.#received.length) {
        this.#received = [];
        this.#receivedHead = 0;
      }
      this.#pull();
      const out = this.#filter(ev);
      if (out !== undefined) return out;
    }
    if (this.#liveEnded) this.#phase = 'done';
    else this.#pull();
    return undefined;
  }

  /**
   * Reads ahead of the consumer: a storage watch's events are pulled as fast as they come (up to
   * storageReadAhead waiting), so that a flush takes all of them, not one per flush round.
   */
  #pull(): void {
    const it = this.#iterator;
    if (this.#pulling || this.#liveEnded || it === undefined) return;
    if (this.#received.length - this.#receivedHead >= storageReadAhead) return;
    this.#pulling = true;
    it.next().then(
      (r) => {
        this.#pulling = false;
        if (r.done === true) this.#liveEnded = true;
        else {
          this.#received.push(r.value);
          this.#pull();
        }
        this.#notify();
      },
      (err: unknown) => {
        this.#pulling = false;
        this.#liveEnded = true;
        if (!this.#signal.aborted && this.#phase !== 'done') this.#last = failure(err, this.#start.after);
        this.#notify();
      },
    );
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    const next = (): Promise<IteratorResult<WatchEvent>> =>
      new Promise((resolve) => {
        const attempt = (): void => {
          const value = this.take();
          if (value === undefined && !this.done) return;
          this.#listener = undefined;
          resolve(value === undefined ? { done: true, value: undefined } : { done: false, value });
        };
        this.#listener = attempt;
        attempt();
      });
    return {
      next,
      return: (): Promise<IteratorResult<WatchEvent>> => {
        this.close();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }
}

/**
 * Validates the request and opens the watch. Errors that upstream answers before streaming
 * (bad options, a resourceVersion still from the future after waiting) are thrown here; errors
 * once streaming (history compacted) arrive as an ERROR event.
 */
export async function openWatch(
  store: GenericStore,
  namespace: string,
  req: WatchRequest,
  features: FeatureGateReader,
): Promise<WatchFeed> {
  const watchList = features.enabled('WatchList');
  validateListRequest(req, true, watchList);
  const predicate = buildPredicate(store.resource, req.labelSelector, req.fieldSelector);
  const rv = req.resourceVersion ?? '';
  const reader = await readerFor(store, namespace, req, predicate);
  const start =
    watchList && req.sendInitialEvents !== undefined
      ? await watchListStart(store, reader, req, rv)
      : await plainStart(store, reader, rv);
  const key = store.prefix(namespace);
  return new WatchFeed(
    start,
    predicate,
    () =>
      reader.watch({
        key,
        recursive: true,
        afterRevision: start.after,
        signal: req.signal,
        ...(req.onStalled !== undefined ? { onStalled: req.onStalled } : {}),
      }),
    req.signal,
  );
}
