/**
 * upstream PodValidateLimitFunc: a pod against one LimitRange. Container items check each
 * container, then each init container, against min, max and maxLimitRequestRatio; Pod items
 * check the pod's totals (pod-resources.ts). Returns every refusal's text in that order
 * (resources in name order, where upstream iterates a Go map).
 */
import type { KubeObject } from '../../machinery/object.js';
import { limitRequestRatioConstraint, maxConstraint, minConstraint } from './constraints.js';
import type { LimitRangeItem } from './limit-range.js';
import { containerResources, podContainers, podResources } from './pod-resources.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

function check(item: LimitRangeItem, requests: ResourceList, limits: ResourceList, errs: string[]): void {
  const push = (msg: string | undefined): void => {
    if (msg !== undefined) errs.push(msg);
  };
  for (const [k, v] of item.min) push(minConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of item.max) push(maxConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of item.maxLimitRequestRatio) {
    push(limitRequestRatioConstraint(item.type, k, v, requests, limits));
  }
}

export function podValidateLimit(items: readonly LimitRangeItem[], pod: KubeObject): string[] {
  const errs: string[] = [];
  for (const item of items) {
    if (item.type === 'Container') {
      for (const c of podContainers(pod)) {
        check(item, containerResources(c, 'requests'), containerResources(c, 'limits'), errs);
      }
    } else if (item.type === 'Pod') {
      check(item, podResources(pod, 'requests'), podResources(pod, 'limits'), errs);
    }
  }
  return errs;
}
