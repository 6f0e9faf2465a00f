/**
 * In-place pod vertical scaling (AM-01, gate InPlacePodVerticalScaling, alpha in v1.27):
 * the resizePolicy defaults (upstream SetDefaults_Pod), the fields dropped while the gate is off
 * (pkg/api/pod dropDisabledFields / dropDisabledPodStatusFields) and the `Proposed` mark a spec
 * resize gets (MarkPodProposedForResize).
 */
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { obj, objArr } from './access.js';

export const resizeGate = 'InPlacePodVerticalScaling';

const containerLists = ['containers', 'initContainers', 'ephemeralContainers'] as const;

/**
 * v1.27 SetDefaults_Pod with the gate on: every (regular) container requesting cpu or memory gets
 * a `NotRequired` policy for each of them it has none for.
 */
export function defaultResizePolicy(spec: JsonObject | undefined, only?: (index: number) => boolean): void {
  objArr(spec, 'containers').forEach((c, i) => {
    if (only !== undefined && !only(i)) return;
    const requests = obj(obj(c, 'resources'), 'requests');
    const policies = objArr(c, 'resizePolicy');
    const specified = new Set(policies.map((p) => p['resourceName']));
    const added: JsonObject[] = [];
    for (const name of ['cpu', 'memory']) {
      if (requests?.[name] !== undefined && !specified.has(name))
        added.push({ resourceName: name, restartPolicy: 'NotRequired' });
    }
    if (added.length > 0) c['resizePolicy'] = [...policies, ...added];
  });
}

/** Upstream inPlacePodVerticalScalingInUse: some container of the spec has a resizePolicy. */
export function resizeInUse(spec: JsonObject | undefined): boolean {
  return containerLists.some((list) => objArr(spec, list).some((c) => objArr(c, 'resizePolicy').length > 0));
}

/** Gate off and not in use by the old spec: containers lose resizePolicy. */
export function dropDisabledResizeSpec(spec: JsonObject | undefined): void {
  for (const list of containerLists) for (const c of objArr(spec, list)) delete c['resizePolicy'];
}

/** Gate off and not in use by the old spec: status loses resize and the containers' resources. */
export function dropDisabledResizeStatus(status: JsonObject | undefined): void {
  if (status === undefined) return;
  delete status['resize'];
  for (const list of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    for (const cs of objArr(status, list)) {
      delete cs['allocatedResources'];
      delete cs['resources'];
    }
  }
}

/**
 * Upstream MarkPodProposedForResize: a container with requests whose resources changed makes the
 * pod's status.resize `Proposed`.
 */
export function markPodProposedForResize(pod: JsonObject, old: JsonObject): void {
  const oldContainers = objArr(obj(old, 'spec'), 'containers');
  const changed = objArr(obj(pod, 'spec'), 'containers').some((c, i) => {
    const resources = obj(c, 'resources');
    if (obj(resources, 'requests') === undefined) return false;
    return !jsonEqual(resources ?? {}, obj(oldContainers[i], 'resources') ?? {});
  });
  if (!changed) return;
  // A new status object: the one carried over may still be the stored object's.
  pod['status'] = { ...(obj(pod, 'status') ?? {}), resize: 'Proposed' };
}
