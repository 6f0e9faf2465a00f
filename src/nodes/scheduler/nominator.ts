/**
 * Nominated pods (upstream framework's PodNominator): a pending pod whose preemption freed room on
 * a node carries `status.nominatedNodeName`, and until it is bound or gone the room is kept for
 * it. Filtering a pod of no higher priority on that node counts the nominated pods as if they ran
 * there (upstream RunFilterPluginsWithNominatedPods), so the victims' replacements cannot take the
 * room back before the preemptor is retried.
 */
import { runFilters } from './filters.js';
import type { CycleState, FilterFailure, NamespaceLabels } from './filters.js';
import { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';

export class Nominator {
  /** node name → pod key → the nominated pod. */
  readonly #byNode = new Map<string, Map<string, PodInfo>>();
  readonly #nodeOf = new Map<string, string>();

  /** Records `pod` as nominated to `node` (or forgets it when `node` is empty). */
  set(pod: PodInfo, node: string): void {
    this.delete(pod.key);
    if (node === '') return;
    let pods = this.#byNode.get(node);
    if (pods === undefined) {
      pods = new Map();
      this.#byNode.set(node, pods);
    }
    pods.set(pod.key, pod);
    this.#nodeOf.set(pod.key, node);
  }

  delete(key: string): void {
    const node = this.#nodeOf.get(key);
    if (node === undefined) return;
    this.#nodeOf.delete(key);
    const pods = this.#byNode.get(node);
    pods?.delete(key);
    if (pods?.size === 0) this.#byNode.delete(node);
  }

  nodeOf(key: string): string | undefined {
    return this.#nodeOf.get(key);
  }

  /** Pods nominated to `node` that `pod` must leave room for: other pods of at least its priority. */
  ahead(pod: PodInfo, node: string): PodInfo[] {
    const pods = this.#byNode.get(node);
    if (pods === undefined) return [];
    const out: PodInfo[] = [];
    for (const p of pods.values()) if (p.key !== pod.key && p.priority >= pod.priority) out.push(p);
    return out;
  }
}

/**
 * The filters on `info` as upstream runs them when pods are nominated there: once with those pods
 * added (resources, ports, affinity see them) and, since a nominated pod may never come, once
 * without; the pod fits only if both pass.
 */
export function runFiltersWithNominated(
  pod: PodInfo,
  info: NodeInfo,
  state: CycleState,
  nsLabels: NamespaceLabels,
  nominated: readonly PodInfo[],
): FilterFailure | undefined {
  if (nominated.length > 0) {
    const withNominated = new NodeInfo(info.name);
    withNominated.node = info.node;
    for (const p of info.pods.values()) withNominated.addPod(p);
    for (const p of nominated) withNominated.addPod({ ...p, nodeName: info.name });
    const failure = runFilters(pod, withNominated, state, nsLabels);
    if (failure !== undefined) return failure;
  }
  return runFilters(pod, info, state, nsLabels);
}
