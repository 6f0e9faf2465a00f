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

function leastRequested(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * maxNodeScore) / capacity);
}

/** LeastAllocated over cpu and memory with the non-zero requests (upstream leastRequestedScore). */
export function leastAllocatedScore(pod: PodInfo, info: NodeInfo, node: NodeSpecView): number {
  const cpu = leastRequested(
    info.nonZeroMilliCPU + pod.resources.nonZeroMilliCPU,
    node.allocatable.get('cpu') ?? 0,
  );
  const mem = leastRequested(
    info.nonZeroMemory + pod.resources.nonZeroMemory,
    node.allocatable.get('memory') ?? 0,
  );
  return Math.floor((cpu + mem) / 2);
}

function fraction(name: string, pod: PodInfo, info: NodeInfo, node: NodeSpecView): number {
  const capacity = node.allocatable.get(name) ?? 0;
  if (capacity === 0) return 1;
  const used = (info.requested.get(name) ?? 0) + (pod.resources.requests.get(name) ?? 0);
  return Math.min(used / capacity, 1);
}

/** BalancedAllocation: 100 × (1 − the standard deviation of the cpu and memory fractions). */
export function balancedAllocationScore(pod: PodInfo, info: NodeInfo, node: NodeSpecView): number {
  const std = Math.abs(fraction('cpu', pod, info, node) - fraction('memory', pod, info, node)) / 2;
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
  const soft = pod.preferredNodeAffinity.length > 0;
  let maxTaints = 0;
  let maxAffinity = 0;
  const taintCounts: number[] = new Array<number>(feasible.length).fill(0);
  const affinity: number[] = new Array<number>(feasible.length).fill(0);
  for (let i = 0; i < feasible.length; i++) {
    const node = feasible[i]!.node;
    if (node === undefined) continue;
    const t = node.taints.length === 0 ? 0 : preferNoScheduleCount(pod, node);
    taintCounts[i] = t;
    if (t > maxTaints) maxTaints = t;
    if (soft) {
      const a = preferredAffinity(pod, node);
      affinity[i] = a;
      if (a > maxAffinity) maxAffinity = a;
    }
  }
  let best = -1;
  let bestScore = -1;
  for (let i = 0; i < feasible.length; i++) {
    const info = feasible[i]!;
    const node = info.node;
    if (node === undefined) continue;
    let score = leastAllocatedScore(pod, info, node) + balancedAllocationScore(pod, info, node);
    score +=
      3 *
      (maxTaints === 0
        ? maxNodeScore
        : maxNodeScore - Math.floor((taintCounts[i]! * maxNodeScore) / maxTaints));
    score += 2 * (maxAffinity === 0 ? 0 : Math.floor((affinity[i]! * maxNodeScore) / maxAffinity));
    if (score > bestScore || (score === bestScore && info.name < feasible[best]!.name)) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}
