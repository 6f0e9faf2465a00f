/**
 * upstream PersistentVolumeClaimValidateLimitFunc: a claim's `spec.resources.requests` against
 * the PersistentVolumeClaim items' min (limits are not user input here) and max (requests only).
 * Claims are never defaulted: storage is required in their spec.
 */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import { maxRequestConstraint, minConstraint } from './constraints.js';
import type { LimitRangeItem } from './limit-range.js';
import { resourceListOf } from '../../apis/core/v1/quota/resource-list.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

export function pvcValidateLimit(items: readonly LimitRangeItem[], pvc: KubeObject): string[] {
  const spec = pvc['spec'];
  const resources = isJsonObject(spec) ? spec['resources'] : undefined;
  const requests = resourceListOf(isJsonObject(resources) ? resources['requests'] : undefined);
  const none: ResourceList = new Map();
  const errs: string[] = [];
  for (const item of items) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of item.min) {
      const msg = minConstraint(item.type, k, v, requests, none);
      if (msg !== undefined) errs.push(msg);
    }
    for (const [k, v] of item.max) {
      const msg = maxRequestConstraint(item.type, k, v, requests);
      if (msg !== undefined) errs.push(msg);
    }
  }
  return errs;
}
