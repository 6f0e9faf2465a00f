/**
 * The scheduler's filters (upstream v1.27 default plugins, in their order): NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, PodTopologySpread and
 * InterPodAffinity, with upstream's reason texts and whether preemption could help
 * (Unschedulable) or not (UnschedulableAndUnresolvable). Pure functions over PodInfo/NodeInfo;
 * the per-cycle state (PreFilter) of topology spread and inter-pod affinity is computed once per
 * scheduling attempt by `prepareCycle`.
 */
import type { NodeInfo, NodeSpecView } from './node-info.js';
import { unschedulableTaintKey } from './node-info.js';
import type {
  AffinityTerm,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodInfo,
  SpreadConstraint,
  Taint,
  Toleration,
} from './pod-info.js';

export const reasons = {
  unschedulable: 'node(s) were unschedulable',
  nodeAffinity: "node(s) didn't match Pod's node affinity/selector",
  ports: "node(s) didn't have free ports for the requested pod ports",
  tooManyPods: 'Too many pods',
  spread: "node(s) didn't match pod topology spread constraints",
  spreadLabel: "node(s) didn't match pod topology spread constraints (missing required label)",
  affinity: "node(s) didn't match pod affinity rules",
  antiAffinity: "node(s) didn't match pod anti-affinity rules",
  existingAntiAffinity: "node(s) didn't satisfy existing pods anti-affinity rules",
} as const;

export function untoleratedTaintReason(t: Taint): string {
  return `node(s) had untolerated taint {${t.key}: ${t.value}}`;
}

export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}

const hardEffects = ['NoSchedule', 'NoExecute'];

export interface FilterFailure {
  readonly plugin: string;
  readonly reasons: readonly string[];
  /** UnschedulableAndUnresolvable: preemption on this node cannot help. */
  readonly unresolvable: boolean;
}

/** Upstream v1.Toleration.ToleratesTaint. */
export function toleratesTaint(tol: Toleration, taint: Taint): boolean {
  if (tol.effect !== '' && tol.effect !== taint.effect) return false;
  if (tol.key !== '' && tol.key !== taint.key) return false;
  if (tol.operator === 'Exists') return true;
  if (tol.operator === 'Equal' || tol.operator === '') return tol.value === taint.value;
  return false;
}

/** The first taint with one of `effects` no toleration tolerates. */
export function firstUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  effects: readonly string[],
): Taint | undefined {
  return taints.find((t) => effects.includes(t.effect) && !tolerations.some((tol) => toleratesTaint(tol, t)));
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  switch (r.operator) {
    case 'In':
      return value !== undefined && r.values.includes(value);
    case 'NotIn':
      return value === undefined || !r.values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || r.values.length !== 1) return false;
      const have = Number.parseInt(value, 10);
      const want = Number.parseInt(r.values[0] ?? '', 10);
      if (!/^-?\d+$/.test(value) || Number.isNaN(want)) return false;
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** Upstream nodeaffinity.NodeSelector: terms ORed, a term's requirements ANDed, empty terms match nothing. */
export function nodeMatchesTerms(terms: readonly NodeSelectorTerm[], node: NodeSpecView): boolean {
  return terms.some((t) => nodeMatchesTerm(t, node));
}

export function nodeMatchesTerm(t: NodeSelectorTerm, node: NodeSpecView): boolean {
  if (t.matchExpressions.length === 0 && t.matchFields.length === 0) return false;
  for (const r of t.matchExpressions) if (!requirementMatches(r, node.labels[r.key])) return false;
  for (const r of t.matchFields) {
    if (r.key !== 'metadata.name' || !requirementMatches(r, node.name)) return false;
  }
  return true;
}

/** nodeSelector and required node affinity (upstream GetRequiredNodeAffinity(pod).Match). */
export function podMatchesNodeAffinity(pod: PodInfo, node: NodeSpecView): boolean {
  for (const k in pod.nodeSelector) if (node.labels[k] !== pod.nodeSelector[k]) return false;
  return pod.requiredNodeAffinity === undefined || nodeMatchesTerms(pod.requiredNodeAffinity, node);
}

function portParts(p: string): { proto: string; ip: string; port: string } {
  const [proto = '', ip = '', port = ''] = p.split('/');
  return { proto, ip, port };
}

export function portsConflict(a: string, b: string): boolean {
  const x = portParts(a);
  const y = portParts(b);
  if (x.proto !== y.proto || x.port !== y.port) return false;
  const wild = (ip: string): boolean => ip === '' || ip === '0.0.0.0' || ip === '::';
  return wild(x.ip) || wild(y.ip) || x.ip === y.ip;
}

const orderedResources = ['cpu', 'memory', 'ephemeral-storage'];

function insufficient(name: string, want: number, info: NodeInfo, node: NodeSpecView): boolean {
  return want > 0 && want > (node.allocatable.get(name) ?? 0) - (info.requested.get(name) ?? 0);
}

/** NodeResourcesFit's reasons (upstream fitsRequest), empty when the pod fits. */
export function insufficientResources(pod: PodInfo, info: NodeInfo, node: NodeSpecView): string[] {
  const out: string[] = [];
  if (info.pods.size + 1 > (node.allocatable.get('pods') ?? 0)) out.push(reasons.tooManyPods);
  const req = pod.resources.requests;
  if (req.size === 0) return out;
  for (const name of orderedResources) {
    if (insufficient(name, req.get(name) ?? 0, info, node)) out.push(insufficientReason(name));
  }
  if (req.size > orderedResources.length || !orderedResources.every((r) => req.has(r))) {
    for (const [name, want] of req) {
      if (orderedResources.includes(name) || name === 'pods') continue;
      if (insufficient(name, want, info, node)) out.push(insufficientReason(name));
    }
  }
  return out;
}

// --- PreFilter state: topology spread and inter-pod affinity -------------------------------

interface SpreadState {
  readonly constraint: SpreadConstraint;
  /** Matching pods per topology value, for every value an eligible node has. */
  readonly counts: Map<string, number>;
  readonly minMatch: number;
}

/** Counts per `topologyKey\0value`. */
type PairCounts = Map<string, number>;

function pair(key: string, value: string): string {
  return `${key}\0${value}`;
}

export interface CycleState {
  readonly spread: readonly SpreadState[];
  readonly affinity: PairCounts | undefined;
  readonly antiAffinity: PairCounts | undefined;
  readonly existingAntiAffinity: PairCounts;
}

/** Namespace name → labels, for namespaceSelector terms. */
export type NamespaceLabels = (namespace: string) => Readonly<Record<string, string>> | undefined;

function termNamespaceMatches(term: AffinityTerm, namespace: string, nsLabels: NamespaceLabels): boolean {
  if (term.namespaces.has(namespace)) return true;
  if (term.namespaceSelector === undefined) return false;
  return term.namespaceSelector(nsLabels(namespace) ?? {});
}

function termMatches(term: AffinityTerm, pod: PodInfo, nsLabels: NamespaceLabels): boolean {
  return termNamespaceMatches(term, pod.namespace, nsLabels) && term.matches(pod.labels);
}

function bump(m: PairCounts, k: string, by = 1): void {
  m.set(k, (m.get(k) ?? 0) + by);
}

export interface ClusterView {
  readonly nodes: Iterable<NodeInfo>;
  /** Assigned pods with required anti-affinity terms, with their node. */
  readonly podsWithAntiAffinity: Iterable<{ readonly pod: PodInfo; readonly node: NodeInfo }>;
  readonly namespaceLabels: NamespaceLabels;
}

function spreadEligible(pod: PodInfo, node: NodeSpecView, constraints: readonly SpreadConstraint[]): boolean {
  for (const c of constraints) {
    if (node.labels[c.topologyKey] === undefined) return false;
    if (c.nodeAffinityPolicy === 'Honor' && !podMatchesNodeAffinity(pod, node)) return false;
    if (
      c.nodeTaintsPolicy === 'Honor' &&
      firstUntoleratedTaint(node.taints, pod.tolerations, ['NoSchedule', 'NoExecute']) !== undefined
    ) {
      return false;
    }
  }
  return true;
}

/** Everything the per-node filters need beyond one node (upstream PreFilter). */
export function prepareCycle(pod: PodInfo, cluster: ClusterView): CycleState {
  const needSpread = pod.spreadConstraints.length > 0;
  const needAffinity = pod.affinityTerms.length > 0 || pod.antiAffinityTerms.length > 0;
  const spreadCounts = pod.spreadConstraints.map(() => new Map<string, number>());
  const affinity: PairCounts | undefined = pod.affinityTerms.length > 0 ? new Map() : undefined;
  const antiAffinity: PairCounts | undefined = pod.antiAffinityTerms.length > 0 ? new Map() : undefined;
  if (needSpread || needAffinity) {
    for (const info of cluster.nodes) {
      const node = info.node;
      if (node === undefined) continue;
      const eligible = needSpread && spreadEligible(pod, node, pod.spreadConstraints);
      pod.spreadConstraints.forEach((c, i) => {
        if (!eligible) return;
        const value = node.labels[c.topologyKey] ?? '';
        let n = 0;
        for (const p of info.pods.values()) {
          if (p.namespace === pod.namespace && !p.terminating && c.matches(p.labels)) n++;
        }
        bump(spreadCounts[i]!, value, n);
      });
      if (!needAffinity) continue;
      for (const p of info.pods.values()) {
        if (
          affinity !== undefined &&
          pod.affinityTerms.every((t) => termMatches(t, p, cluster.namespaceLabels))
        ) {
          for (const t of pod.affinityTerms) {
            const v = node.labels[t.topologyKey];
            if (v !== undefined) bump(affinity, pair(t.topologyKey, v));
          }
        }
        if (antiAffinity !== undefined) {
          for (const t of pod.antiAffinityTerms) {
            const v = node.labels[t.topologyKey];
            if (v !== undefined && termMatches(t, p, cluster.namespaceLabels))
              bump(antiAffinity, pair(t.topologyKey, v));
          }
        }
      }
    }
  }
  const existingAntiAffinity: PairCounts = new Map();
  for (const { pod: p, node } of cluster.podsWithAntiAffinity) {
    if (node.node === undefined) continue;
    for (const t of p.antiAffinityTerms) {
      const v = node.node.labels[t.topologyKey];
      if (v !== undefined && termMatches(t, pod, cluster.namespaceLabels)) {
        bump(existingAntiAffinity, pair(t.topologyKey, v));
      }
    }
  }
  const spread = pod.spreadConstraints.map((constraint, i) => {
    const counts = spreadCounts[i]!;
    let minMatch = counts.size === 0 ? 0 : Math.min(...counts.values());
    if (constraint.minDomains !== undefined && counts.size < constraint.minDomains) minMatch = 0;
    return { constraint, counts, minMatch };
  });
  return { spread, affinity, antiAffinity, existingAntiAffinity };
}

function affinityAllowsAlone(pod: PodInfo, state: CycleState, nsLabels: NamespaceLabels): boolean {
  // The first pod of a group with affinity to itself may go anywhere with the topology labels.
  return state.affinity?.size === 0 && pod.affinityTerms.every((t) => termMatches(t, pod, nsLabels));
}

/** Runs every filter on one node; undefined when the pod fits. */
export function runFilters(
  pod: PodInfo,
  info: NodeInfo,
  state: CycleState,
  nsLabels: NamespaceLabels,
): FilterFailure | undefined {
  const node = info.node;
  if (node === undefined)
    return { plugin: 'NodeUnschedulable', reasons: ['node not found'], unresolvable: true };
  // NodeUnschedulable
  if (
    node.unschedulable &&
    !pod.tolerations.some((t) =>
      toleratesTaint(t, { key: unschedulableTaintKey, value: '', effect: 'NoSchedule' }),
    )
  ) {
    return { plugin: 'NodeUnschedulable', reasons: [reasons.unschedulable], unresolvable: true };
  }
  // TaintToleration
  const taint =
    node.taints.length === 0 ? undefined : firstUntoleratedTaint(node.taints, pod.tolerations, hardEffects);
  if (taint !== undefined) {
    return { plugin: 'TaintToleration', reasons: [untoleratedTaintReason(taint)], unresolvable: true };
  }
  // NodeAffinity
  if (!podMatchesNodeAffinity(pod, node)) {
    return { plugin: 'NodeAffinity', reasons: [reasons.nodeAffinity], unresolvable: true };
  }
  // NodePorts
  if (pod.hostPorts.length > 0 && info.usedPorts.size > 0) {
    for (const want of pod.hostPorts) {
      for (const used of info.usedPorts.keys()) {
        if (portsConflict(want, used))
          return { plugin: 'NodePorts', reasons: [reasons.ports], unresolvable: false };
      }
    }
  }
  // NodeResourcesFit
  const insufficient = insufficientResources(pod, info, node);
  if (insufficient.length > 0)
    return { plugin: 'NodeResourcesFit', reasons: insufficient, unresolvable: false };
  // PodTopologySpread
  for (const s of state.spread) {
    const value = node.labels[s.constraint.topologyKey];
    if (value === undefined) {
      return { plugin: 'PodTopologySpread', reasons: [reasons.spreadLabel], unresolvable: true };
    }
    const self = s.constraint.matches(pod.labels) ? 1 : 0;
    const skew = (s.counts.get(value) ?? 0) + self - s.minMatch;
    if (skew > s.constraint.maxSkew) {
      return { plugin: 'PodTopologySpread', reasons: [reasons.spread], unresolvable: false };
    }
  }
  // InterPodAffinity
  if (state.affinity !== undefined) {
    let podsExist = true;
    for (const t of pod.affinityTerms) {
      const v = node.labels[t.topologyKey];
      if (v === undefined) {
        return { plugin: 'InterPodAffinity', reasons: [reasons.affinity], unresolvable: true };
      }
      if ((state.affinity.get(pair(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
    }
    if (!podsExist && !affinityAllowsAlone(pod, state, nsLabels)) {
      return { plugin: 'InterPodAffinity', reasons: [reasons.affinity], unresolvable: true };
    }
  }
  if (state.antiAffinity !== undefined) {
    for (const t of pod.antiAffinityTerms) {
      const v = node.labels[t.topologyKey];
      if (v !== undefined && (state.antiAffinity.get(pair(t.topologyKey, v)) ?? 0) > 0) {
        return { plugin: 'InterPodAffinity', reasons: [reasons.antiAffinity], unresolvable: false };
      }
    }
  }
  if (state.existingAntiAffinity.size > 0) {
    for (const [k, v] of Object.entries(node.labels)) {
      if ((state.existingAntiAffinity.get(pair(k, v)) ?? 0) > 0) {
        return { plugin: 'InterPodAffinity', reasons: [reasons.existingAntiAffinity], unresolvable: false };
      }
    }
  }
  return undefined;
}

/**
 * Upstream FitError.Error(): `0/N nodes are available: <count> <reason>, ... .` with the
 * reason histogram sorted as strings, then the PostFilter (preemption) message.
 */
export function fitErrorMessage(
  numNodes: number,
  failures: Iterable<FilterFailure>,
  postFilterMsg = '',
): string {
  const histogram = new Map<string, number>();
  for (const f of failures) for (const r of f.reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
  let msg = `0/${numNodes} nodes are available:`;
  const parts = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
  if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  if (postFilterMsg !== '') msg += ` ${postFilterMsg}.`;
  return msg;
}
