/**
 * Watch over the generic store: initial state for resourceVersion ""/"0", then storage events
 * filtered through the request's selectors (an object leaving the selection is DELETED, one
 * entering it ADDED), as kube-apiserver does.
 */
import { apiErrors, StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { StorageError } from '../../storage/errors.js';
import type { WatchRequest } from '../options.js';
import { buildPredicate } from './predicate.js';
import { parseResourceVersion, validateListRequest } from './resource-version.js';
import type { GenericStore } from './store.js';
import type { FeatureGateReader } from '../strategy.js';
import type { JsonObject } from '../../util/json.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: JsonObject;
}

/**
 * Validates the request and opens the watch. Errors that upstream answers before streaming
 * (bad options, a resourceVersion from the future) are thrown here; errors once streaming
 * (history compacted) arrive as an ERROR event.
 */
export async function openWatch(
  store: GenericStore,
  namespace: string,
  req: WatchRequest,
  features: FeatureGateReader,
): Promise<AsyncIterable<WatchEvent>> {
  validateListRequest(req, true, features.enabled('WatchList'));
  const predicate = buildPredicate(store.resource, req.labelSelector, req.fieldSelector);
  const rv = req.resourceVersion ?? '';
  let initial: KubeObject[] = [];
  let after: number;
  if (rv === '' || rv === '0') {
    const list = await store.list(namespace, {
      ...(req.labelSelector !== undefined ? { labelSelector: req.labelSelector } : {}),
      ...(req.fieldSelector !== undefined ? { fieldSelector: req.fieldSelector } : {}),
    });
    initial = list.items;
    after = Number(list.resourceVersion);
  } else {
    after = parseResourceVersion(rv);
    const current = await store.storage.currentRevision();
    if (after > current) throw apiErrors.tooLargeResourceVersion(after, current, 1);
  }
  const storage = store.storage;
  const key = store.prefix(namespace);

  async function* events(): AsyncGenerator<WatchEvent> {
    for (const object of initial) yield { type: 'ADDED', object };
    try {
      for await (const ev of storage.watch({
        key,
        recursive: true,
        afterRevision: after,
        signal: req.signal,
        ...(req.onStalled !== undefined ? { onStalled: req.onStalled } : {}),
      })) {
        const now = predicate.matches(ev.object);
        if (ev.type === 'ADDED') {
          if (now) yield { type: 'ADDED', object: ev.object };
          continue;
        }
        const before = ev.prevObject !== undefined && predicate.matches(ev.prevObject);
        if (ev.type === 'DELETED') {
          if (before || now) yield { type: 'DELETED', object: ev.object };
        } else if (now && before) {
          yield { type: 'MODIFIED', object: ev.object };
        } else if (now) {
          yield { type: 'ADDED', object: ev.object };
        } else if (before && ev.prevObject !== undefined) {
          const gone = { ...ev.prevObject, metadata: { ...ev.prevObject.metadata } };
          gone.metadata.resourceVersion = ev.object.metadata.resourceVersion!;
          yield { type: 'DELETED', object: gone };
        }
      }
    } catch (err) {
      if (req.signal.aborted) return;
      if (err instanceof StorageError && err.code === 'Expired') {
        const status = apiErrors.resourceExpired(
          `too old resource version: ${after} (${err.revision})`,
        ).status;
        yield { type: 'ERROR', object: status as unknown as JsonObject };
        return;
      }
      const status = (err instanceof StatusError ? err : apiErrors.internal(err)).status;
      yield { type: 'ERROR', object: status as unknown as JsonObject };
    }
  }
  return events();
}
