/**
 * A pod's requests and limits as upstream v1.27's LimitRanger totals them for Pod-type items
 * (its podRequests / podLimits): the containers' values summed per resource (a resource counts
 * when any container names it), then raised to any init container's larger value, since init
 * containers run one at a time before the others. Overhead is not added. (The in-place resize
 * branch reads container statuses, which a pod being created does not have.)
 */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { addInto, maxInto, resourceListOf } from '../../apis/core/v1/quota/resource-list.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

export type ResourceField = 'requests' | 'limits';

function containersOf(pod: KubeObject, field: 'containers' | 'initContainers'): JsonObject[] {
  const spec = pod['spec'];
  const list = isJsonObject(spec) ? spec[field] : undefined;
  return Array.isArray(list) ? list.filter(isJsonObject) : [];
}

/** One container's requests or limits. */
export function containerResources(container: JsonObject, field: ResourceField): ResourceList {
  const resources = container['resources'];
  return resourceListOf(isJsonObject(resources) ? resources[field] : undefined);
}

export function podResources(pod: KubeObject, field: ResourceField): ResourceList {
  const total: ResourceList = new Map();
  for (const c of containersOf(pod, 'containers')) addInto(total, containerResources(c, field));
  for (const c of containersOf(pod, 'initContainers')) maxInto(total, containerResources(c, field));
  return total;
}

export function podContainers(pod: KubeObject): JsonObject[] {
  return [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers')];
}
