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
 */
import type { JsonObject } from '../util/json.js';
import { isJsonObject } from '../util/json.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { ApiError } from './api-error.js';
import { InformerStore } from './informer-store.js';
import { Lister } from './lister.js';
import type { ReadonlyStore } from './informer-store.js';
import { resourceVersionOf } from './object-meta.js';
import type { RestClient } from './rest-client.js';

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

  constructor(o: SharedInformerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.path = o.path;
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
    let relist = true;
    let failures = 0;
    const period = this.#o.resyncPeriodMs ?? 0;
    const stopResync = new AbortController();
    const resync = period > 0 ? this.#resyncLoop(period, stopResync.signal) : undefined;
    try {
      while (!signal.aborted) {
        try {
          if (relist) {
            await this.#list(signal);
            relist = false;
          }
          const started = this.#clock.now();
          const { gone, events } = await this.#watch(signal);
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

  /** Lists the collection and replaces the store's content with it. */
  async #list(signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await this.#listAll(this.#o.pageSize ?? 500, signal);
    const { added, updated, deleted } = this.#store.replace(items);
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

  /** One watch from the current resourceVersion, applied to the store as events arrive. */
  async #watch(signal: AbortSignal): Promise<{ gone: boolean; events: number }> {
    const timeout = this.#o.watchTimeoutSeconds ?? Math.floor(300 * (1 + Math.random()));
    const query =
      `watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(this.#resourceVersion)}` +
      `&timeoutSeconds=${timeout}`;
    let events = 0;
    for await (const ev of this.#o.client.watch(withQuery(this.path, query), signal)) {
      events++;
      const obj = ev.object;
      if (ev.type === 'ERROR') {
        const code = typeof obj['code'] === 'number' ? obj['code'] : 500;
        if (code === 410) return { gone: true, events };
        throw new ApiError(code, JSON.stringify(obj));
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
