/** Reading the identity of a decoded API object: name, namespace, store key, resourceVersion. */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';

/** `metadata.name` and `metadata.namespace` of a JSON object ('' when absent). */
export function nameOf(obj: JsonObject): { readonly name: string; readonly namespace: string } {
  const meta = obj['metadata'];
  if (!isJsonObject(meta)) return { name: '', namespace: '' };
  return {
    name: typeof meta['name'] === 'string' ? meta['name'] : '',
    namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : '',
  };
}

/** client-go's MetaNamespaceKey: `namespace/name`, or `name` for cluster-scoped objects. */
export function keyFor(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}/${name}`;
}

/** The store key of `obj` (see `keyFor`). */
export function objectKey(obj: JsonObject): string {
  const { name, namespace } = nameOf(obj);
  return keyFor(namespace, name);
}

/** `metadata.resourceVersion` ('' when absent); also read from lists and bookmarks. */
export function resourceVersionOf(obj: JsonObject): string {
  const meta = obj['metadata'];
  return isJsonObject(meta) && typeof meta['resourceVersion'] === 'string' ? meta['resourceVersion'] : '';
}
