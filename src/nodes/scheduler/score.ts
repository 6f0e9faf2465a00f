/**
 * Scoring of feasible nodes (upstream v1.27 default score plugins and weights):
 * NodeResourcesFit LeastAllocated (cpu and memory, weight 1), NodeResourcesBalancedAllocation
 * (weight 1), TaintToleration (PreferNoSchedule taints, weight 3) and NodeAffinity (preferred
 * terms, weight 2). Ties go to the node first in name order, so placement is deterministic.
 */
import { nodeMatchesTerm, toleratesTaint } from './filters.js';
import type { NodeInfo, NodeSpecView } from './node-info.js';
import type { PodInfo } from './pod-info.js';

const maxNodeScore = 100;

/** LeastAllocated over cpu and memory with the non-zero requests (upstream leastRequestedScore). */
export function leastAllocatedScore(pod: PodInfo, info: NodeInfo, node: NodeSpecView): number {
  const one = (requested: number, capacity: number): number => {
    if (capacity === 0 || requested > capacity) return 0;
    return Math.floor(((capacity - requested) * maxNodeScore) / capacity);
  };
  const cpu = one(info.nonZeroMilliCPU + pod.resources.nonZeroMilliCPU, node.allocatable.get('cpu') ?? 0);
  const mem = one(info.nonZeroMemory + pod.resources.nonZeroMemory, node.allocatable.get('memory') ?? 0);
  return Math.floor((cpu + mem) / 2);
}

/** BalancedAllocation: 100 × (1 − the standard deviation of the cpu and memory fractions). */
export function balancedAllocationScore(pod: PodInfo, info: NodeInfo, node: NodeSpecView): number {
  const fraction = (name: string): number => {
    const capacity = node.allocatable.get(name) ?? 0;
    if (capacity === 0) return 1;
    const used = (info.requested.get(name) ?? 0) + (pod.resources.requests.get(name) ?? 0);
    return Math.min(used / capacity, 1);
  };
  const std = Math.abs(fraction('cpu') - fraction('memory')) / 2;
  return Math.floor((1 - std) * maxNodeScore);
}

function preferNoScheduleCount(pod: PodInfo, node: NodeSpecView): number {
  let n = 0;
  for (const t of node.taints) {
    if (t.effect === 'PreferNoSchedule' && !pod.tolerations.some((tol) => toleratesTaint(tol, t))) n++;
  }
  return n;
}

function preferredAffinity(pod: PodInfo, node: NodeSpecView): number {
  let sum = 0;
  for (const p of pod.preferredNodeAffinity)
    if (p.weight > 0 && nodeMatchesTerm(p.term, node)) sum += p.weight;
  return sum;
}

/** The index in `feasible` of the best node. */
export function selectHost(pod: PodInfo, feasible: readonly NodeInfo[]): number {
  const taintCounts = feasible.map((i) => (i.node === undefined ? 0 : preferNoScheduleCount(pod, i.node)));
  const maxTaints = Math.max(0, ...taintCounts);
  const affinity = feasible.map((i) => (i.node === undefined ? 0 : preferredAffinity(pod, i.node)));
  const maxAffinity = Math.max(0, ...affinity);
  let best = -1;
  let bestScore = -1;
  feasible.forEach((info, i) => {
    const node = info.node;
    if (node === undefined) return;
    let score = leastAllocatedScore(pod, info, node) + balancedAllocationScore(pod, info, node);
    score +=
      3 *
      (maxTaints === 0
        ? maxNodeScore
        : maxNodeScore - Math.floor((taintCounts[i]! * maxNodeScore) / maxTaints));
    score += 2 * (maxAffinity === 0 ? 0 : Math.floor((affinity[i]! * maxNodeScore) / maxAffinity));
    const current = best < 0 ? undefined : feasible[best];
    if (score > bestScore || (score === bestScore && current !== undefined && info.name < current.name)) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}
