/**
 * LimitRanger's mutation (upstream PodMutateLimitFunc): every container and init container
 * gains the Container-type `defaultRequest` as requests and `default` as limits for each
 * resource it does not name yet, and the pod is annotated `kubernetes.io/limit-ranger` with what
 * was set (`LimitRanger plugin set: cpu request for container nginx; cpu limit for container
 * nginx`). Several LimitRanges apply one after another; each that sets anything rewrites the
 * annotation.
 */
import { canonicalQuantityString } from '../../machinery/quantity/quantity.js';
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import type { LimitRangeItem } from './limit-range.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

export interface DefaultRequirements {
  readonly requests: ResourceList;
  readonly limits: ResourceList;
}

/** upstream defaultContainerResourceRequirements: later Container items win per resource. */
export function defaultContainerResourceRequirements(items: readonly LimitRangeItem[]): DefaultRequirements {
  const requests: ResourceList = new Map();
  const limits: ResourceList = new Map();
  for (const item of items) {
    if (item.type !== 'Container') continue;
    for (const [k, v] of item.defaultRequest) requests.set(k, v);
    for (const [k, v] of item.default) limits.set(k, v);
  }
  return { requests, limits };
}

/** The resources of `defaults` the JSON map lacks (a key present even as null counts as set). */
function missing(map: JsonValue | undefined, defaults: ResourceList): string[] {
  const present = isJsonObject(map) ? map : {};
  return [...defaults.keys()].filter((k) => !Object.hasOwn(present, k)).sort();
}

/** The map with the added resources, keys sorted as Go marshals a map. */
function withAdded(map: JsonValue | undefined, names: readonly string[], defaults: ResourceList): JsonObject {
  const merged: JsonObject = isJsonObject(map) ? { ...map } : {};
  for (const k of names) merged[k] = canonicalQuantityString(defaults.get(k)!);
  const sorted: JsonObject = {};
  for (const k of Object.keys(merged).sort()) sorted[k] = merged[k]!;
  return sorted;
}

/** upstream mergeContainerResources: fills the container in place, returns annotation parts. */
function mergeContainerResources(
  container: JsonObject,
  defaults: DefaultRequirements,
  kind: string,
): string[] {
  const resources = isJsonObject(container['resources']) ? container['resources'] : {};
  const setLimits = missing(resources['limits'], defaults.limits);
  const setRequests = missing(resources['requests'], defaults.requests);
  if (setLimits.length === 0 && setRequests.length === 0) return [];
  // ResourceRequirements' fields in Go's order: limits, requests, claims.
  const out: JsonObject = {};
  if (setLimits.length > 0) out['limits'] = withAdded(resources['limits'], setLimits, defaults.limits);
  else if (resources['limits'] !== undefined) out['limits'] = resources['limits'];
  if (setRequests.length > 0)
    out['requests'] = withAdded(resources['requests'], setRequests, defaults.requests);
  else if (resources['requests'] !== undefined) out['requests'] = resources['requests'];
  for (const [k, v] of Object.entries(resources)) if (!(k in out)) out[k] = v;
  container['resources'] = out;
  const name = typeof container['name'] === 'string' ? container['name'] : '';
  const parts: string[] = [];
  if (setRequests.length > 0) parts.push(`${setRequests.join(', ')} request for ${kind} ${name}`);
  if (setLimits.length > 0) parts.push(`${setLimits.join(', ')} limit for ${kind} ${name}`);
  return parts;
}

function containersOf(spec: JsonObject, field: string): JsonObject[] {
  const list = spec[field];
  return Array.isArray(list) ? list.filter(isJsonObject) : [];
}

/** upstream mergePodResourceRequirements, in place. */
export function mergePodResourceRequirements(pod: KubeObject, defaults: DefaultRequirements): void {
  if (defaults.limits.size === 0 && defaults.requests.size === 0) return;
  const spec = pod['spec'];
  if (!isJsonObject(spec)) return;
  const annotations: string[] = [];
  for (const c of containersOf(spec, 'containers'))
    annotations.push(...mergeContainerResources(c, defaults, 'container'));
  for (const c of containersOf(spec, 'initContainers')) {
    annotations.push(...mergeContainerResources(c, defaults, 'init container'));
  }
  if (annotations.length === 0) return;
  pod.metadata.annotations ??= {};
  pod.metadata.annotations[limitRangerAnnotation] = `LimitRanger plugin set: ${annotations.join('; ')}`;
}
