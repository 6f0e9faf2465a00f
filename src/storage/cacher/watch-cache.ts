/**
 * The watch cache of one resource (upstream's Cacher + watchCache): the current state of every
 * object under a key prefix plus a sliding window of recent events, fed by one storage watch.
 * Lists and gets that accept a not-quite-latest answer are served from the state, and watches from
 * the window, so N watchers cost one storage watch and share the same event objects (and so the
 * same serialized bytes above). A watch starting before the window falls back to storage, which
 * keeps history until compaction (upstream's cacher answers 410 there instead).
 *
 * When the storage watch ends (its consumer stalled) the cache resumes it from its own revision,
 * so nothing is lost or repeated. When storage no longer has that revision (compacted) the cache
 * lists again and ends every watch it serves, as upstream re-initialises: their clients watch
 * again from their last resourceVersion. When storage closes, the cache stops.
 */
import type { KubeObject } from '../../machinery/object.js';
import { threadStrings } from '../../util/string-interner.js';
import { StorageError } from '../errors.js';
import { KvClosedError } from '../kv/errors.js';
import { prefixEnd } from '../kv/types.js';
import type { ObjectStore, ObjectWatchEvent, ObjectWatchOptions } from '../interfaces.js';
import { CacheWatcher } from './cache-watcher.js';
import { EncodedItems, EncodingBudget, defaultEncodingBudgetBytes } from './encoded-items.js';
import { EventWindow } from './event-window.js';
import { FieldsInterner } from './fields-interner.js';
import type { WindowEntry } from './event-window.js';

/** Objects per storage read when the cache (re)fills: about 60 ms of decoding each. */
const relistPageSize = 5000;

export interface WatchCacheOptions {
  readonly storage: ObjectStore;
  /** The resource's key prefix, ending in '/'. */
  readonly prefix: string;
  /** Events kept for watches that start in the recent past (default 1,000). */
  readonly capacity?: number;
  /** Events a watcher may hold undelivered before it is cut off (default: storage's, else 10,000). */
  readonly maxQueuedEvents?: number;
  /** Pause before retrying after an unexpected storage error (default 200 ms). */
  readonly retryDelayMs?: number;
  /** The byte budget of list answers' encoded items, shared by a server's caches (default: own 32 MiB). */
  readonly encodingBudget?: EncodingBudget;
}

interface RevisionWaiter {
  readonly revision: number;
  readonly wake: () => void;
}

/** A page of a list answered by the cache (see WatchCache.page). */
export interface CachePage {
  readonly items: KubeObject[];
  readonly revision: number;
  /** The key of the last object looked at (undefined when none was). */
  readonly lastKey: string | undefined;
  /** Keys under the prefix follow the last one looked at. */
  readonly more: boolean;
  /** The keys under the prefix from the start key on (as etcd counts a range). */
  readonly count: number;
}

/** The first index of sorted `keys` whose key is not below `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class WatchCache {
  readonly #storage: ObjectStore;
  readonly #prefix: string;
  readonly #window: EventWindow;
  readonly #maxQueued: number;
  readonly #retryDelayMs: number;
  #state = new Map<string, KubeObject>();
  /** List answers' encodings of objects of the state (encoded-items.ts). */
  readonly #encoded: EncodedItems;
  /** One copy of each distinct managedFields set among the objects held (fields-interner.ts). */
  readonly #fields = new FieldsInterner();
  /** The state's keys in storage's order, made when a list needs them after a key came or went. */
  #sortedKeys: string[] | undefined;
  readonly #watchers = new Set<CacheWatcher>();
  readonly #stop = new AbortController();
  #revision = 0;
  #ready = false;
  #running = false;
  #initialisations = 0;
  #eventsReceived = 0;
  #eventsDispatched = 0;
  #terminatedWatchers = 0;
  #initEvents = 0;
  #lists = { served: 0, fetched: 0, returned: 0 };
  /** The last attempt to fill the cache failed: reads do not wait for it. */
  #failing = false;
  /** Resolved (and replaced) each time the cache becomes ready or stops. */
  #readyWaiters: (() => void)[] = [];
  /** Reads waiting for the state to reach a revision. */
  #revisionWaiters: RevisionWaiter[] = [];

  constructor(o: WatchCacheOptions) {
    this.#storage = o.storage;
    this.#prefix = o.prefix;
    this.#window = new EventWindow(o.capacity ?? 1000);
    this.#maxQueued = Math.max(1, o.maxQueuedEvents ?? o.storage.watchMaxQueuedEvents ?? 10_000);
    this.#retryDelayMs = o.retryDelayMs ?? 200;
    this.#encoded = new EncodedItems({
      budget: o.encodingBudget ?? new EncodingBudget(defaultEncodingBudgetBytes),
      holds: (obj) => this.#state.get(this.keyOf(obj)) === obj,
    });
  }

  /** The encodings list answers keep of the state's objects (see encoded-items.ts). */
  get encodings(): EncodedItems {
    return this.#encoded;
  }

  /** True once the state is filled and kept current (until storage closes or a re-list). */
  get ready(): boolean {
    return this.#ready;
  }

  /** How many times the state was (re)listed from storage. */
  get initialisations(): number {
    return this.#initialisations;
  }

  /** Events taken from the storage watch (upstream's apiserver_watch_cache_events_received_total). */
  get eventsReceived(): number {
    return this.#eventsReceived;
  }

  /** Events handed to the watchers (upstream's apiserver_watch_cache_events_dispatched_total). */
  get eventsDispatched(): number {
    return this.#eventsDispatched;
  }

  /** Watchers cut off for falling behind (upstream's apiserver_terminated_watchers_total). */
  get terminatedWatchers(): number {
    return this.#terminatedWatchers;
  }

  /** Objects sent as a watch's initial state (upstream's apiserver_init_events_total). */
  get initEvents(): number {
    return this.#initEvents;
  }

  /**
   * Lists answered (`list`), the objects they looked at and those they returned (upstream's
   * apiserver_cache_list_total, _fetched_objects_total, _returned_objects_total).
   */
  get listStats(): { readonly served: number; readonly fetched: number; readonly returned: number } {
    return { ...this.#lists };
  }

  /** Events the window keeps (upstream's watch_cache_capacity; nanokube does not resize it). */
  get capacity(): number {
    return this.#window.capacity;
  }

  /** Events in the window. */
  get windowSize(): number {
    return this.#window.size;
  }

  /**
   * Starts the cache if needed and resolves with whether it is ready, waiting at most `timeoutMs`
   * for the first list (upstream's cacher makes requests wait for readiness too).
   */
  async whenReady(timeoutMs: number): Promise<boolean> {
    this.start();
    if (this.#ready || !this.#running || this.#failing) return this.#ready;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#readyWaiters.push(resolve);
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    clearTimeout(timer);
    return this.#ready;
  }

  /**
   * Resolves with the cache's revision once it is at least `revision`, or when `timeoutMs` passed
   * or `signal` aborted (then possibly lower).
   */
  async waitForRevision(revision: number, timeoutMs: number, signal?: AbortSignal): Promise<number> {
    if (this.#revision >= revision || signal?.aborted === true) return this.#revision;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs).unref();
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
      this.#revisionWaiters.push({ revision, wake: done });
    });
    return this.#revision;
  }

  #advance(revision: number): void {
    if (revision <= this.#revision) return;
    this.#revision = revision;
    if (this.#revisionWaiters.length === 0) return;
    const still: RevisionWaiter[] = [];
    for (const w of this.#revisionWaiters) {
      if (w.revision <= revision) w.wake();
      else still.push(w);
    }
    this.#revisionWaiters = still;
  }

  #wakeReadyWaiters(): void {
    const waiters = this.#readyWaiters;
    this.#readyWaiters = [];
    for (const w of waiters) w();
  }

  /** Watches served from the cache right now. */
  get watchers(): number {
    return this.#watchers.size;
  }

  get objects(): number {
    return this.#state.size;
  }

  /** Starts filling the cache (once); it runs until `stop` or until storage closes. */
  start(): void {
    if (this.#running || this.#stop.signal.aborted) return;
    this.#running = true;
    void this.#run();
  }

  stop(): void {
    this.#stop.abort();
    this.#ready = false;
    this.#endWatchers();
    this.#encoded.clear();
  }

  /** The revision the state is current at. */
  currentRevision(): Promise<number> {
    return Promise.resolve(this.#revision);
  }

  get revision(): number {
    return this.#revision;
  }

  /** The key an object is kept under (the storage key layout of collectionPrefix/objectKey). */
  keyOf(obj: KubeObject): string {
    const ns = obj.metadata.namespace;
    const name = obj.metadata.name ?? '';
    return ns !== undefined && ns !== '' ? `${this.#prefix}${ns}/${name}` : `${this.#prefix}${name}`;
  }

  get(key: string): KubeObject | undefined {
    return this.#state.get(key);
  }

  /**
   * The objects under `prefix` (in key order, as storage lists them) that pass `filter`, answering
   * a list (counted in `listStats`).
   */
  list(prefix: string, filter?: (obj: KubeObject) => boolean): { items: KubeObject[]; revision: number } {
    const r = this.page(prefix, prefix, 0, filter);
    return { items: r.items, revision: r.revision };
  }

  /** As `list`, the state a watch starts with (counted in `initEvents`). */
  initialState(
    prefix: string,
    filter?: (obj: KubeObject) => boolean,
  ): { items: KubeObject[]; revision: number } {
    const r = this.#range(prefix, prefix, 0, filter);
    this.#initEvents += r.items.length;
    return { items: r.items, revision: r.revision };
  }

  /**
   * One page of a list: from key `start` (inclusive, under `prefix`) the first `limit` objects
   * that pass `filter` (0: all), with the key of the last one looked at, whether keys follow it,
   * and how many keys there are from `start` on. What a storage read at the cache's revision
   * would give (counted in `listStats`).
   */
  page(prefix: string, start: string, limit: number, filter?: (obj: KubeObject) => boolean): CachePage {
    const r = this.#range(prefix, start, limit, filter);
    this.#lists.served++;
    this.#lists.fetched += r.fetched;
    this.#lists.returned += r.items.length;
    return r;
  }

  #keys(): string[] {
    return (this.#sortedKeys ??= [...this.#state.keys()].sort());
  }

  /** The walk behind lists, pages and a watch's initial state, with how many keys it looked at. */
  #range(
    prefix: string,
    start: string,
    limit: number,
    filter: ((obj: KubeObject) => boolean) | undefined,
  ): CachePage & { readonly fetched: number } {
    const keys = this.#keys();
    const first = lowerBound(keys, prefix);
    const end = lowerBound(keys, prefixEnd(prefix));
    const from = start <= prefix ? first : Math.max(first, lowerBound(keys, start));
    const items: KubeObject[] = [];
    let i = from;
    let lastKey: string | undefined;
    for (; i < end && (limit <= 0 || items.length < limit); i++) {
      lastKey = keys[i]!;
      const obj = this.#state.get(lastKey)!;
      if (filter === undefined || filter(obj)) items.push(obj);
    }
    return { items, revision: this.#revision, lastKey, more: i < end, count: end - from, fetched: i - from };
  }

  /**
   * Events after `afterRevision` (0: after the cache's revision) from the window, then live ones;
   * from storage when the cache is not ready or the window no longer reaches back that far.
   * Registers synchronously: a `list` followed by this call with its revision misses nothing.
   */
  watch(options: ObjectWatchOptions): AsyncIterable<ObjectWatchEvent> {
    if (!this.#ready) return this.#storage.watch(options);
    const after = options.afterRevision > 0 ? options.afterRevision : this.#revision;
    const backlog = this.#window.since(after);
    if (backlog === undefined) return this.#storage.watch(options);
    const watcher = new CacheWatcher({
      key: options.key,
      recursive: options.recursive,
      after,
      maxQueued: this.#maxQueued,
      signal: options.signal,
      onStalled: () => {
        this.#terminatedWatchers++;
        options.onStalled?.();
      },
      unregister: (w) => this.#watchers.delete(w),
    });
    if (watcher.ended) return watcher;
    this.#watchers.add(watcher);
    watcher.offer(backlog);
    return watcher;
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        if (!this.#ready) await this.#relist();
        let stalled = false;
        for await (const ev of this.#storage.watch({
          key: this.#prefix,
          recursive: true,
          afterRevision: this.#revision,
          signal,
          onStalled: () => (stalled = true),
          // Storage has handed over every change up to `revision`: the state is current there.
          onProgress: (revision) => this.#advance(revision),
        })) {
          this.#apply(ev);
        }
        // Ended without being left behind: storage closed (or we were stopped).
        if (!stalled) break;
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof StorageError && err.code === 'Expired') {
          this.#ready = false;
          continue;
        }
        if (isClosed(err)) break;
        this.#ready = false;
        this.#failing = true;
        this.#wakeReadyWaiters();
        await new Promise((r) => setTimeout(r, this.#retryDelayMs).unref());
      }
    }
    this.#ready = false;
    this.#running = false;
    this.#endWatchers();
    this.#wakeReadyWaiters();
  }

  /**
   * Reads the whole collection at one revision, in pages with a turn of the event loop between
   * them: storage reads and decodes synchronously, and 100,000 objects in one piece held the
   * server (its start, and every request) for over a second.
   */
  async #relist(): Promise<void> {
    const signal = this.#stop.signal;
    const state = new Map<string, KubeObject>();
    let page = await this.#storage.list({ prefix: this.#prefix, limit: relistPageSize });
    const revision = page.revision;
    for (;;) {
      for (const item of page.items) {
        this.#fields.intern(item);
        threadStrings.intern(item);
        state.set(this.keyOf(item), item);
      }
      if (page.continueToken === undefined || signal.aborted) break;
      await new Promise((r) => setImmediate(r));
      page = await this.#storage.list({
        prefix: this.#prefix,
        limit: relistPageSize,
        continueToken: page.continueToken,
      });
    }
    // Watches served from the previous state cannot be continued across a gap: end them.
    this.#endWatchers();
    this.#encoded.clear();
    this.#state = state;
    this.#sortedKeys = undefined;
    this.#advance(revision);
    this.#window.reset(revision);
    this.#initialisations++;
    this.#ready = true;
    this.#failing = false;
    this.#wakeReadyWaiters();
  }

  #apply(ev: ObjectWatchEvent): void {
    this.#eventsReceived++;
    this.#fields.intern(ev.object);
    threadStrings.intern(ev.object);
    const revision = Number(ev.object.metadata.resourceVersion);
    const key = this.keyOf(ev.object);
    const previous = this.#state.get(key);
    if (previous !== undefined) this.#encoded.forget(previous);
    if (ev.type === 'DELETED') {
      if (previous !== undefined) {
        this.#state.delete(key);
        this.#sortedKeys = undefined;
      }
    } else {
      if (previous === undefined) this.#sortedKeys = undefined;
      this.#state.set(key, ev.object);
    }
    const entry: WindowEntry = { revision, key, event: ev };
    this.#window.push(entry);
    for (const w of this.#watchers) w.offerOne(entry);
    this.#eventsDispatched++;
    this.#advance(revision);
  }

  #endWatchers(): void {
    for (const w of [...this.#watchers]) w.close(true);
  }
}

function isClosed(err: unknown): boolean {
  return err instanceof KvClosedError;
}
