/**
 * Object metadata as the garbage collector reads it (PartialObjectMetadata), and a list/watch
 * client that asks the server for metadata only, as client-go's metadata informers do.
 */
import type { ListWatchClient } from '../../client/shared-informer.js';
import type { RestClient } from '../../client/rest-client.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

/** Accept header of metadata-only lists. */
export const metadataListAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** Accept header of metadata-only gets and watches. */
export const metadataAccept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/**
 * A list/watch client for informers whose objects are PartialObjectMetadata: lists and watches
 * through `client`, asking for metadata only.
 */
export function metadataListWatchClient(client: Pick<RestClient, 'request' | 'watch'>): ListWatchClient {
  return {
    request: (method, path, options) =>
      client.request(method, path, { ...options, accept: metadataListAccept }),
    watch: (path, signal) => client.watch(path, signal, { accept: metadataAccept }),
  };
}

/** metav1.OwnerReference */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** The fields of ObjectMeta the collector uses. */
export interface ObjectMetadata {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly resourceVersion: string;
  readonly ownerReferences: readonly OwnerReference[];
  readonly finalizers: readonly string[];
  readonly deletionTimestamp: string | undefined;
}

function str(o: JsonObject, k: string): string {
  const v = o[k];
  return typeof v === 'string' ? v : '';
}

function ownerReferencesOf(v: JsonValue | undefined): OwnerReference[] {
  if (!Array.isArray(v)) return [];
  const out: OwnerReference[] = [];
  for (const r of v) {
    if (!isJsonObject(r)) continue;
    const controller = r['controller'];
    const block = r['blockOwnerDeletion'];
    out.push({
      apiVersion: str(r, 'apiVersion'),
      kind: str(r, 'kind'),
      name: str(r, 'name'),
      uid: str(r, 'uid'),
      ...(typeof controller === 'boolean' ? { controller } : {}),
      ...(typeof block === 'boolean' ? { blockOwnerDeletion: block } : {}),
    });
  }
  return out;
}

/** The metadata of an object (or PartialObjectMetadata) as the server sent it. */
export function metadataOf(obj: JsonObject): ObjectMetadata {
  const meta = isJsonObject(obj['metadata']) ? obj['metadata'] : {};
  const finalizers = meta['finalizers'];
  const ts = meta['deletionTimestamp'];
  return {
    uid: str(meta, 'uid'),
    name: str(meta, 'name'),
    namespace: str(meta, 'namespace'),
    resourceVersion: str(meta, 'resourceVersion'),
    ownerReferences: ownerReferencesOf(meta['ownerReferences']),
    finalizers: Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [],
    deletionTimestamp: typeof ts === 'string' && ts !== '' ? ts : undefined,
  };
}

/** Owner references as JSON (for patches). */
export function ownerReferenceJson(r: OwnerReference): JsonObject {
  return {
    apiVersion: r.apiVersion,
    kind: r.kind,
    name: r.name,
    uid: r.uid,
    ...(r.controller !== undefined ? { controller: r.controller } : {}),
    ...(r.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: r.blockOwnerDeletion } : {}),
  };
}
