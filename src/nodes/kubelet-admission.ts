/**
 * The kubelet's admission of a pod bound to its node (pkg/kubelet/lifecycle/predicate.go): the
 * scheduler's general predicates against the pods the node already admitted — room for the pod
 * (pods, cpu, memory, ...), node selector and required node affinity, free host ports — then the
 * node's NoExecute taints. A pod placed on the node by hand (spec.nodeName) skips the scheduler,
 * so this is where it is turned away; the kubelet reports the first reason and fails the pod.
 */
import type { JsonObject } from '../util/json.js';
import { firstUntoleratedTaint, podMatchesNodeAffinity, portsConflict } from './scheduler/filters.js';
import type { NodeSpecView } from './scheduler/node-info.js';
import type { PodInfo } from './scheduler/pod-info.js';
import type { ResourceList } from './resources.js';

/** Why the kubelet rejected a pod: status.reason, and the message after "Pod was rejected: ". */
export interface Rejection {
  readonly reason: string;
  readonly message: string;
}

export interface AdmissionInput {
  readonly pod: PodInfo;
  readonly node: NodeSpecView;
  /** How many pods the node admitted that have not finished, and their host ports. */
  readonly admittedPods: number;
  readonly usedPorts: readonly string[];
  /** What those pods request (their allocated resources). */
  readonly used: ResourceList;
}

const ordered = ['cpu', 'memory', 'ephemeral-storage'];

function outOf(resource: string, requested: number, used: number, capacity: number): Rejection {
  return {
    reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

function predicate(name: string): Rejection {
  return { reason: name, message: `Predicate ${name} failed` };
}

/** undefined: admitted. */
export function kubeletAdmit(o: AdmissionInput): Rejection | undefined {
  const { pod, node } = o;
  // noderesources.Fits: the pod count, then each requested resource.
  const maxPods = node.allocatable.get('pods') ?? 0;
  if (o.admittedPods + 1 > maxPods) return outOf('pods', 1, o.admittedPods, maxPods);
  const req = pod.resources.requests;
  const names = [
    ...ordered.filter((r) => req.has(r)),
    ...[...req.keys()].filter((r) => !ordered.includes(r) && r !== 'pods'),
  ];
  for (const name of names) {
    const want = req.get(name) ?? 0;
    // Extended resources the node does not know are left out (removeMissingExtendedResources).
    if (want <= 0 || (!ordered.includes(name) && !node.allocatable.has(name))) continue;
    const cap = node.allocatable.get(name) ?? 0;
    const used = o.used.get(name) ?? 0;
    if (want > cap - used) return outOf(name, want, used, cap);
  }
  if (!podMatchesNodeAffinity(pod, node)) return predicate('NodeAffinity');
  if (pod.hostPorts.some((want) => o.usedPorts.some((u) => portsConflict(want, u))))
    return predicate('NodePorts');
  if (firstUntoleratedTaint(node.taints, pod.tolerations, ['NoExecute']) !== undefined)
    return predicate('TaintToleration');
  return undefined;
}

/** The status the kubelet's rejectPod sets. */
export function rejectedStatus(r: Rejection): JsonObject {
  return { phase: 'Failed', reason: r.reason, message: `Pod was rejected: ${r.message}` };
}
