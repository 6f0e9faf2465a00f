/**
 * A shared informer (client-go's in spirit): one LIST+WATCH of a collection path keeps a local
 * store current and tells every registered handler about adds, updates and deletes.
 *
 * It lists (in pages), then watches from the list's resourceVersion with bookmarks, following
 * the resourceVersion of every event and bookmark. A watch the server ends (its timeout) is
 * resumed from the last resourceVersion; a 410 Gone (that resourceVersion is compacted away) or
 * any other failure leads to a fresh list, after a backoff for failures. A relist reconciles the
 * store: objects no longer listed are deleted and handed to `onDelete` in their last known state
 * with `finalStateUnknown` set (client-go's DeletedFinalStateUnknown), since their deletion
 * happened while the informer was not watching. Backoffs and resyncs wait on its Clock.
 *
 * With `useWatchList` (AM-02) the list is a WatchList stream instead (watch-list.ts): its
 * initial events fill a temporary store that replaces the informer's at the initial-events-end
 * BOOKMARK, exactly like a list (same handler calls, deletions with the last known state, AM-21),
 * and the same stream then goes on as the watch, from the bookmark's resourceVersion. In `'auto'`
 * mode a refusal (422) makes the informer LIST+WATCH for the rest of that run; the next `run`
 * asks again.
 */
import type { JsonObject } from '../util/json.js';
import { isJsonObject } from '../util/json.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { ApiError } from './api-error.js';
import { InformerStore } from './informer-store.js';
import { Lister } from './lister.js';
import type { ReadonlyStore } from './informer-store.js';
import { objectKey, resourceVersionOf } from './object-meta.js';
import type { RestClient } from './rest-client.js';
import type { WatchEvent } from './watch-event.js';
import {
  defaultWatchListMode,
  isInitialEventsEndBookmark,
  isResourceVersionUnavailable,
  isWatchListRefusal,
  statusError,
  watchListQuery,
} from './watch-list.js';
import type { WatchListMode } from './watch-list.js';

export type { WatchListMode } from './watch-list.js';

/** What an informer needs of a client (tests pass fakes). */
export type ListWatchClient = Pick<RestClient, 'request' | 'watch'>;

/**
 * Callbacks of one handler, called synchronously in event order: keep them quick (enqueue a
 * key) and do not modify the objects, which are the store's own.
 */
export interface ResourceEventHandler {
  readonly onAdd?: (obj: JsonObject) => void;
  readonly onUpdate?: (oldObj: JsonObject, newObj: JsonObject) => void;
  /**
   * `lastKnown` is the object's final state from a DELETED event, or, when `finalStateUnknown`,
   * the store's last state of an object a relist no longer found.
   */
  readonly onDelete?: (lastKnown: JsonObject, finalStateUnknown: boolean) => void;
}

export interface HandlerRegistration {
  remove(): void;
}

export interface SharedInformerOptions {
  readonly client: ListWatchClient;
  /** Collection path, e.g. `/api/v1/namespaces`; may carry a query (`?fieldSelector=...`). */
  readonly path: string;
  /** Failed lists and watches, and exceptions thrown by handlers. */
  readonly onError?: (err: unknown) => void;
  /** Delay after the first failure (default 800 ms), doubling per failure in a row... */
  readonly initialBackoffMs?: number;
  /** ...up to this (default 30 s), as client-go's reflector. */
  readonly maxBackoffMs?: number;
  /** `timeoutSeconds` of each watch (default: random in [300, 600), as client-go). */
  readonly watchTimeoutSeconds?: number;
  /** Objects per LIST page (default 500; 0 lists in one response). */
  readonly pageSize?: number;
  /**
   * Every this many ms (once synced), each handler's `onUpdate(obj, obj)` is called for every
   * object in the store, so controllers re-check state that changes without events (client-go's
   * resync period). Default 0: never.
   */
  readonly resyncPeriodMs?: number;
  /** What backoffs, resyncs and the health of a watch are timed with (default: the real clock). */
  readonly clock?: Clock;
  /**
   * Applied to every object before it is stored and handed to the handlers (client-go's
   * SetTransform), e.g. `stripManagedFields`.
   */
  readonly transform?: (obj: JsonObject) => JsonObject;
  /**
   * Whether lists are WatchList streams (see WatchListMode). Default, as client-go v1.27:
   * `'auto'` when the environment variable `ENABLE_CLIENT_GO_WATCH_LIST_ALPHA` is set, otherwise
   * `'never'` (the server's `WatchList` gate is off by default, and every informer start would
   * then cost a refused request). Components that know the server offers it pass `'auto'`.
   */
  readonly useWatchList?: WatchListMode;
}

/** A watch that ran at least this long, or delivered an event, counts as healthy. */
const healthyWatchMs = 1000;

function withQuery(path: string, query: string): string {
  if (query === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

function isGone(err: unknown): boolean {
  return err instanceof ApiError && err.code === 410;
}

export class SharedInformer {
  readonly path: string;
  /** Resolves true on the first complete list, false if `run` ends before one. */
  readonly synced: Promise<boolean>;
  readonly #o: SharedInformerOptions;
  readonly #clock: Clock;
  readonly #store = new InformerStore();
  readonly #handlers = new Set<{ readonly h: ResourceEventHandler }>();
  #resolveSynced: (ok: boolean) => void = () => undefined;
  #hasSynced = false;
  #running = false;
  #resourceVersion = '';
  readonly #watchListMode: WatchListMode;
  /** The server refused WatchList during this run: LIST+WATCH until the run ends. */
  #watchListRefused = false;
  /** The last resourceVersion was refused (410, too large): the next WatchList asks without it. */
  #resourceVersionUnavailable = false;

  constructor(o: SharedInformerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.path = o.path;
    this.#watchListMode = o.useWatchList ?? defaultWatchListMode(process.env);
    this.synced = new Promise<boolean>((resolve) => {
      this.#resolveSynced = resolve;
    });
  }

  get store(): ReadonlyStore {
    return this.#store;
  }

  /** Reads of the store by namespace, name and labels. */
  lister(): Lister {
    return new Lister(this.#store);
  }

  /** Whether the store has been filled by a complete list. */
  hasSynced(): boolean {
    return this.#hasSynced;
  }

  /** The resourceVersion the store is current at (from the last list, event or bookmark). */
  lastResourceVersion(): string {
    return this.#resourceVersion;
  }

  /** Whether the next (re)list is a WatchList stream rather than a LIST. */
  usesWatchList(): boolean {
    return this.#watchListMode === 'always' || (this.#watchListMode === 'auto' && !this.#watchListRefused);
  }

  /**
   * Registers `h`. Once synced, `h.onAdd` is called at once for every object in the store, so a
   * handler added late sees the same picture as one added before the first list.
   */
  addEventHandler(h: ResourceEventHandler): HandlerRegistration {
    const entry = { h };
    this.#handlers.add(entry);
    if (this.#hasSynced && h.onAdd !== undefined) {
      for (const obj of this.#store.list()) this.#call(() => h.onAdd?.(obj));
    }
    return { remove: () => this.#handlers.delete(entry) };
  }

  /** Lists and watches until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new Error(`informer for ${this.path} is already running`);
    this.#running = true;
    this.#watchListRefused = false;
    let relist = true;
    let failures = 0;
    const period = this.#o.resyncPeriodMs ?? 0;
    const stopResync = new AbortController();
    const resync = period > 0 ? this.#resyncLoop(period, stopResync.signal) : undefined;
    try {
      while (!signal.aborted) {
        try {
          // After a WatchList, its stream goes on as the watch.
          let stream: AsyncGenerator<WatchEvent> | undefined;
          if (relist) {
            stream = await this.#sync(signal);
            relist = false;
          }
          const started = this.#clock.now();
          const { gone, events } = await this.#watch(signal, stream);
          if (gone) {
            relist = true;
          } else if (events > 0 || this.#clock.now() - started >= healthyWatchMs) {
            failures = 0;
          } else {
            // Ended at once with nothing to say: do not spin on a server that keeps doing so.
            await this.#clock.sleep(this.#backoff(failures++), signal);
          }
        } catch (err) {
          if (signal.aborted) break;
          relist = true;
          if (isGone(err)) continue;
          this.#o.onError?.(err);
          await this.#clock.sleep(this.#backoff(failures++), signal);
        }
      }
    } finally {
      stopResync.abort();
      await resync;
      this.#running = false;
      this.#resolveSynced(false);
    }
  }

  /** Every `period` ms (once synced): `onUpdate(obj, obj)` for every object in the store. */
  async #resyncLoop(period: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.#clock.sleep(period, signal);
      if (signal.aborted || !this.#hasSynced) continue;
      for (const obj of this.#store.list()) this.#dispatch((h) => h.onUpdate?.(obj, obj));
    }
  }

  #backoff(failures: number): number {
    const first = this.#o.initialBackoffMs ?? 800;
    return Math.min(first * 2 ** failures, this.#o.maxBackoffMs ?? 30_000);
  }

  /**
   * Fills the store afresh: by WatchList (returning its stream, now at the state's
   * resourceVersion) when used, else, or when the server refuses it in `'auto'` mode, by LIST.
   */
  async #sync(signal: AbortSignal): Promise<AsyncGenerator<WatchEvent> | undefined> {
    if (this.usesWatchList()) {
      try {
        return await this.#watchList(signal);
      } catch (err) {
        if (signal.aborted || this.#watchListMode !== 'auto' || !isWatchListRefusal(err)) throw err;
        // Not offered (client-go: "falling back to the previous LIST/WATCH semantic").
        this.#watchListRefused = true;
      }
    }
    await this.#list(signal);
    return undefined;
  }

  /** Lists the collection and replaces the store's content with it. */
  async #list(signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await this.#listAll(this.#o.pageSize ?? 500, signal);
    this.#replace(items, resourceVersion);
  }

  /**
   * Opens a WatchList stream and collects its initial events in a temporary store until the
   * initial-events-end BOOKMARK; then that state replaces the store's (as a list would) and the
   * stream, positioned after the bookmark, is returned for the watch to go on with. Nothing
   * reaches the store or the handlers before the bookmark: a stream that fails or ends earlier
   * leaves the store as it was. Asked from the last resourceVersion (the state is at least that
   * new), or without one (a consistent read) when that one was refused.
   */
  async #watchList(signal: AbortSignal): Promise<AsyncGenerator<WatchEvent>> {
    for (;;) {
      const from = this.#resourceVersionUnavailable ? '' : this.#resourceVersion;
      const query = watchListQuery(from, this.#watchTimeoutSeconds());
      const stream = this.#o.client.watch(withQuery(this.path, query), signal);
      const temporary = new Map<string, JsonObject>();
      let resourceVersion = '';
      let complete = false;
      let retry = false;
      try {
        while (!complete && !retry) {
          const next = await stream.next();
          if (next.done === true) {
            if (signal.aborted) throw new Error(`watch list of ${this.path} stopped`);
            throw new Error(`watch list of ${this.path} ended before its initial-events-end bookmark`);
          }
          const { type, object } = next.value;
          if (type === 'ERROR') {
            if (from !== '' && isResourceVersionUnavailable(object)) {
              // Ask again for a consistent read (client-go: setIsLastSyncResourceVersionUnavailable).
              this.#resourceVersionUnavailable = true;
              retry = true;
              continue;
            }
            throw statusError(object);
          }
          if (type === 'DELETED') temporary.delete(objectKey(object));
          else if (type !== 'BOOKMARK') temporary.set(objectKey(object), object);
          const rv = resourceVersionOf(object);
          if (rv !== '') resourceVersion = rv;
          complete = type === 'BOOKMARK' && isInitialEventsEndBookmark(object);
        }
      } finally {
        if (!complete) await stream.return(undefined);
      }
      if (retry) continue;
      this.#resourceVersionUnavailable = false;
      this.#replace([...temporary.values()], resourceVersion);
      return stream;
    }
  }

  /** Makes the store hold `items`, current at `resourceVersion`, and tells the handlers. */
  #replace(items: readonly JsonObject[], resourceVersion: string): void {
    const transform = this.#o.transform;
    const { added, updated, deleted } = this.#store.replace(
      transform === undefined ? items : items.map((i) => transform(i)),
    );
    this.#resourceVersion = resourceVersion;
    for (const obj of added) this.#dispatch((h) => h.onAdd?.(obj));
    for (const { old, current } of updated) this.#dispatch((h) => h.onUpdate?.(old, current));
    for (const obj of deleted) this.#dispatch((h) => h.onDelete?.(obj, true));
    if (!this.#hasSynced) {
      this.#hasSynced = true;
      this.#resolveSynced(true);
    }
  }

  async #listAll(
    pageSize: number,
    signal: AbortSignal,
  ): Promise<{ items: JsonObject[]; resourceVersion: string }> {
    const items: JsonObject[] = [];
    let resourceVersion = '';
    let token = '';
    do {
      const query =
        pageSize > 0
          ? `limit=${pageSize}${token !== '' ? `&continue=${encodeURIComponent(token)}` : ''}`
          : '';
      let page: JsonObject;
      try {
        page = await this.#o.client.request('GET', withQuery(this.path, query), { signal });
      } catch (err) {
        // The snapshot the continue token pins was compacted: take the whole list in one go.
        if (token !== '' && isGone(err)) return this.#listAll(0, signal);
        throw err;
      }
      // List items carry no kind or apiVersion; watch events do: give stored objects both.
      const kind = typeof page['kind'] === 'string' ? page['kind'].replace(/List$/, '') : undefined;
      const apiVersion = typeof page['apiVersion'] === 'string' ? page['apiVersion'] : undefined;
      for (const item of Array.isArray(page['items']) ? page['items'] : []) {
        if (!isJsonObject(item)) continue;
        items.push({
          ...(apiVersion !== undefined ? { apiVersion } : {}),
          ...(kind !== undefined && kind !== '' ? { kind } : {}),
          ...item,
        });
      }
      const meta = isJsonObject(page['metadata']) ? page['metadata'] : {};
      resourceVersion = typeof meta['resourceVersion'] === 'string' ? meta['resourceVersion'] : '';
      token = typeof meta['continue'] === 'string' ? meta['continue'] : '';
    } while (token !== '');
    return { items, resourceVersion };
  }

  #watchTimeoutSeconds(): number {
    return this.#o.watchTimeoutSeconds ?? Math.floor(300 * (1 + Math.random()));
  }

  /**
   * One watch from the current resourceVersion (or the rest of `stream`, a WatchList's),
   * applied to the store as events arrive.
   */
  async #watch(
    signal: AbortSignal,
    stream: AsyncGenerator<WatchEvent> | undefined,
  ): Promise<{ gone: boolean; events: number }> {
    const query =
      `watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(this.#resourceVersion)}` +
      `&timeoutSeconds=${this.#watchTimeoutSeconds()}`;
    let events = 0;
    for await (const ev of stream ?? this.#o.client.watch(withQuery(this.path, query), signal)) {
      events++;
      const obj =
        ev.type === 'ERROR' || this.#o.transform === undefined ? ev.object : this.#o.transform(ev.object);
      if (ev.type === 'ERROR') {
        if (obj['code'] === 410) return { gone: true, events };
        throw statusError(obj);
      }
      if (ev.type === 'DELETED') {
        // Unknown objects are skipped, as client-go's DeltaFIFO does.
        if (this.#store.delete(obj) !== undefined) this.#dispatch((h) => h.onDelete?.(obj, false));
      } else if (ev.type !== 'BOOKMARK') {
        const old = this.#store.upsert(obj);
        if (old === undefined) this.#dispatch((h) => h.onAdd?.(obj));
        else this.#dispatch((h) => h.onUpdate?.(old, obj));
      }
      const rv = resourceVersionOf(obj);
      if (rv !== '') this.#resourceVersion = rv;
    }
    return { gone: false, events };
  }

  #dispatch(call: (h: ResourceEventHandler) => void): void {
    for (const { h } of [...this.#handlers]) this.#call(() => call(h));
  }

  #call(f: () => void): void {
    try {
      f();
    } catch (err) {
      this.#o.onError?.(err);
    }
  }
}

/**
 * A transform that drops `metadata.managedFields` (client-go's TransformStripManagedFields):
 * controllers do not read them, and every cached object would otherwise carry them.
 */
export function stripManagedFields(obj: JsonObject): JsonObject {
  const meta = obj['metadata'];
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta) && 'managedFields' in meta) {
    delete (meta as Record<string, unknown>)['managedFields'];
  }
  return obj;
}
