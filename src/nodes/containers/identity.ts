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

/**
 * Whether the container's processes have CAP_NET_ADMIN in effect: privileged, or the capability
 * added (or ALL) and running as root (a non-root user's effective set is empty).
 */
export function hasNetAdmin(pod: JsonObject, container: JsonObject): boolean {
  const sc = objAt(container, 'securityContext');
  if (sc?.['privileged'] === true) return true;
  const add = objAt(sc, 'capabilities')?.['add'];
  const added =
    Array.isArray(add) && add.some((c) => c === 'NET_ADMIN' || c === 'CAP_NET_ADMIN' || c === 'ALL');
  return added && identityOf(pod, container).uid === 0;
}

/**
 * The shell option (shell-run.ts `ipTool`) for the `ip` of the images the simulator knows
 * (busybox's applet); none for other images.
 */
export function ipToolOption(
  image: string,
  pod: JsonObject,
  container: JsonObject,
): { readonly ipTool?: { readonly prefix: string; readonly netAdmin: boolean } } {
  return image === 'busybox' ? { ipTool: { prefix: 'ip: ', netAdmin: hasNetAdmin(pod, container) } } : {};
}
