/**
 * Who a container's processes run as: runAsUser and runAsGroup of the container, else of the pod,
 * else the image's user (root for the images the simulator follows); supplementary groups are the
 * group, the pod's fsGroup and supplementalGroups, as the runtime sets them.
 */
import type { JsonObject } from '../../util/json.js';
import { numAt, objAt } from '../json.js';

export interface Identity {
  readonly uid: number;
  readonly gid: number;
  readonly groups: readonly number[];
  /** Whether the pod or container names the user (otherwise it is the image's). */
  readonly explicit: boolean;
}

export function identityOf(pod: JsonObject, container: JsonObject): Identity {
  const podSc = objAt(objAt(pod, 'spec'), 'securityContext');
  const sc = objAt(container, 'securityContext');
  const user = numAt(sc, 'runAsUser') ?? numAt(podSc, 'runAsUser');
  const gid = numAt(sc, 'runAsGroup') ?? numAt(podSc, 'runAsGroup') ?? 0;
  const groups = [gid];
  const add = (g: unknown): void => {
    if (typeof g === 'number' && !groups.includes(g)) groups.push(g);
  };
  add(numAt(podSc, 'fsGroup'));
  const sup = podSc?.['supplementalGroups'];
  if (Array.isArray(sup)) for (const g of sup) add(g);
  return { uid: user ?? 0, gid, groups, explicit: user !== undefined };
}
