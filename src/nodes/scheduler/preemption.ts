/**
 * Basic preemption (upstream v1.27 DefaultPreemption PostFilter, without PDBs and without
 * reserving room for nominated pods): on each node where a filter failed in a way preemption may
 * fix, remove every lower-priority pod, check the pod fits, then give back as many victims as
 * still let it fit (highest priority first). The candidate with the lowest highest-victim
 * priority, then the lowest priority sum, then the fewest victims, then the first name wins.
 * Messages are upstream's (`preemption: 0/3 nodes are available: 3 No preemption victims found
 * for incoming pod.`). Filters count the pods nominated to a node ahead of this one (nominator.ts),
 * and a pod whose earlier preemption is still in progress (a lower-priority pod on its nominated
 * node is terminating) waits for it instead of preempting again, as upstream's
 * PodEligibleToPreemptOthers.
 */
import { fitErrorMessage } from './filters.js';
import type { CycleState, FilterFailure, NamespaceLabels } from './filters.js';
import { NodeInfo } from './node-info.js';
import { runFiltersWithNominated } from './nominator.js';
import type { PodInfo } from './pod-info.js';

export interface PreemptionResult {
  /** The node to nominate and the pods to delete, when preemption helps. */
  readonly candidate?: { readonly node: string; readonly victims: readonly PodInfo[] };
  /** The PostFilter message for the FitError (empty when a candidate was found). */
  readonly message: string;
}

const notHelpful: FilterFailure = {
  plugin: 'DefaultPreemption',
  reasons: ['Preemption is not helpful for scheduling'],
  unresolvable: true,
};
const noVictims: FilterFailure = {
  plugin: 'DefaultPreemption',
  reasons: ['No preemption victims found for incoming pod'],
  unresolvable: true,
};

function copyWithout(info: NodeInfo, remove: ReadonlySet<string>): NodeInfo {
  const out = new NodeInfo(info.name);
  out.node = info.node;
  for (const p of info.pods.values()) if (!remove.has(p.key)) out.addPod(p);
  return out;
}

export function preempt(
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  failures: ReadonlyMap<string, FilterFailure>,
  state: CycleState,
  nsLabels: NamespaceLabels,
  nominated: {
    readonly nodeOf: (pod: PodInfo) => string;
    readonly ahead: (pod: PodInfo, node: string) => PodInfo[];
  },
): PreemptionResult {
  if (pod.preemptionPolicy === 'Never') {
    return { message: 'preemption: not eligible due to preemptionPolicy=Never.' };
  }
  const nominatedNode = nominated.nodeOf(pod);
  if (nominatedNode !== '') {
    const failure = failures.get(nominatedNode);
    const info = nodes.find((n) => n.name === nominatedNode);
    if (
      info !== undefined &&
      !(failure?.unresolvable ?? false) &&
      [...info.pods.values()].some((p) => p.terminating && p.priority < pod.priority)
    ) {
      return { message: 'preemption: not eligible due to a terminating pod on the nominated node.' };
    }
  }
  const statuses: FilterFailure[] = [];
  const candidates: { node: string; victims: PodInfo[] }[] = [];
  for (const info of nodes) {
    const failure = failures.get(info.name);
    if (failure === undefined || failure.unresolvable) {
      statuses.push(notHelpful);
      continue;
    }
    const lower = [...info.pods.values()].filter((p) => p.priority < pod.priority);
    if (lower.length === 0) {
      statuses.push(noVictims);
      continue;
    }
    const ahead = nominated.ahead(pod, info.name);
    const trial = copyWithout(info, new Set(lower.map((p) => p.key)));
    const still = runFiltersWithNominated(pod, trial, state, nsLabels, ahead);
    if (still !== undefined) {
      statuses.push(still);
      continue;
    }
    // Reprieve as many as possible, most important first.
    lower.sort((a, b) => b.priority - a.priority || a.created - b.created);
    const victims: PodInfo[] = [];
    for (const p of lower) {
      trial.addPod(p);
      if (runFiltersWithNominated(pod, trial, state, nsLabels, ahead) !== undefined) {
        trial.removePod(p.key);
        victims.push(p);
      }
    }
    candidates.push({ node: info.name, victims });
  }
  if (candidates.length === 0) {
    return { message: `preemption: ${fitErrorMessage(nodes.length, statuses)}` };
  }
  const highest = (v: readonly PodInfo[]): number => Math.max(...v.map((p) => p.priority));
  const sum = (v: readonly PodInfo[]): number => v.reduce((s, p) => s + p.priority, 0);
  candidates.sort(
    (a, b) =>
      highest(a.victims) - highest(b.victims) ||
      sum(a.victims) - sum(b.victims) ||
      a.victims.length - b.victims.length ||
      (a.node < b.node ? -1 : a.node > b.node ? 1 : 0),
  );
  return { candidate: candidates[0]!, message: '' };
}
