/** Following a controller reference to its owner in an informer's store. */
import { keyFor } from '../../client/object-meta.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { JsonObject } from '../../util/json.js';
import { uid } from './objects.js';
import type { OwnerRef } from './objects.js';

/**
 * resolveControllerRef: the object of kind `kind` that `ref` (a controller reference of an object
 * in namespace `ns`) names, if `informer`'s store holds it with that uid.
 */
export function resolveControllerRef(
  informer: SharedInformer | undefined,
  kind: string,
  ns: string,
  ref: OwnerRef | undefined,
): JsonObject | undefined {
  if (ref?.kind !== kind) return undefined;
  const o = informer?.store.get(keyFor(ns, ref.name));
  return o !== undefined && uid(o) === ref.uid ? o : undefined;
}
