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
      state: () => Promise.resolve(cache.list(prefix, select)),
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
): Promise<AsyncIterable<WatchEvent>> {
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

  async function* events(): AsyncGenerator<WatchEvent> {
    if (start.error !== undefined) {
      yield errorEvent(start.error);
      return;
    }
    for (const object of start.initial) yield { type: 'ADDED', object };
    if (start.endBookmark) {
      yield {
        type: 'BOOKMARK',
        object: {
          metadata: {
            resourceVersion: String(start.after),
            annotations: { [initialEventsEndAnnotation]: 'true' },
          },
        },
      };
    }
    try {
      for await (const ev of reader.watch({
        key,
        recursive: true,
        afterRevision: start.after,
        signal: req.signal,
        ...(req.onStalled !== undefined ? { onStalled: req.onStalled } : {}),
      })) {
        const out = filterEvent(ev, predicate);
        if (out !== undefined) yield out;
      }
    } catch (err) {
      if (req.signal.aborted) return;
      if (err instanceof StorageError && err.code === 'Expired') {
        yield errorEvent(
          apiErrors.resourceExpired(`too old resource version: ${start.after} (${err.revision})`),
        );
        return;
      }
      yield errorEvent(err instanceof StatusError ? err : apiErrors.internal(err));
    }
  }
  return events();
}
