/** Following a controller reference to its owner in an informer's store. */
import { keyFor } from '../../client/object-meta.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject } from '../../util/json.js';
import { labels, obj, uid } from './objects.js';
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

/** A label selector as the owner lookups need it (metav1 selectors, or a controller's own). */
export interface OwnerSelector {
  readonly empty: boolean;
  matches(l: Record<string, string>): boolean;
}

/**
 * The candidates (owners of `o`'s namespace) whose selector matches `o`'s labels: the controllers
 * that may adopt an orphan. An empty or unusable selector selects nothing, as upstream's
 * getPodReplicaSets / getPodDaemonSets / getPodJobs / getDeploymentsForReplicaSet skip them.
 */
export function ownersSelecting(
  candidates: readonly JsonObject[],
  o: JsonObject,
  selectorOf: (owner: JsonObject) => OwnerSelector | undefined,
): JsonObject[] {
  const l = labels(o);
  return candidates.filter((owner) => {
    const s = selectorOf(owner);
    return s !== undefined && !s.empty && s.matches(l);
  });
}

/** `spec.selector` (a metav1 LabelSelector) of an owner; undefined when it does not parse. */
export function metav1SelectorOf(owner: JsonObject): OwnerSelector | undefined {
  const s = asSelector(obj(obj(owner['spec'])['selector']));
  return s.ok ? s : undefined;
}
