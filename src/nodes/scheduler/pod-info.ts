/**
 * What the scheduler reads of a pod, parsed once per informer event so that filters and scores
 * touch plain fields: requests, node selection, tolerations, (anti-)affinity terms, topology
 * spread constraints and host ports.
 */
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject } from '../../util/json.js';
import { metaOf, numAt, objAt, objsAt, strAt, stringMap, strsAt } from '../json.js';
import { podRequests } from '../resources.js';
import type { PodRequests } from '../resources.js';

export type LabelMatcher = (labels: Readonly<Record<string, string>>) => boolean;

export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/** A NodeSelectorTerm: its requirements are ANDed; a term with none matches no node. */
export interface NodeSelectorTerm {
  readonly matchExpressions: readonly NodeSelectorRequirement[];
  readonly matchFields: readonly NodeSelectorRequirement[];
}

export interface Toleration {
  readonly key: string;
  readonly operator: string;
  readonly value: string;
  readonly effect: string;
}

export interface Taint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
}

/** A required pod (anti-)affinity term. */
export interface AffinityTerm {
  readonly matches: LabelMatcher;
  /** Namespaces named in the term (the pod's own when neither these nor a selector are given). */
  readonly namespaces: ReadonlySet<string>;
  /** The namespaceSelector, when given ({} selects every namespace). */
  readonly namespaceSelector: LabelMatcher | undefined;
  readonly topologyKey: string;
}

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: string;
  readonly matches: LabelMatcher;
  readonly minDomains: number | undefined;
  /** Honor (default): only nodes matching the pod's nodeSelector/affinity count. */
  readonly nodeAffinityPolicy: string;
  /** Ignore (default): tainted nodes count too. */
  readonly nodeTaintsPolicy: string;
}

export interface PreferredTerm {
  readonly weight: number;
  readonly term: NodeSelectorTerm;
}

export interface PodInfo {
  readonly key: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly nodeName: string;
  readonly schedulerName: string;
  readonly priority: number;
  readonly preemptionPolicy: string;
  readonly nominatedNodeName: string;
  /** creationTimestamp in ms (queue order among equal priorities). */
  readonly created: number;
  readonly gated: boolean;
  readonly terminating: boolean;
  /** Succeeded or Failed: holds no resources. */
  readonly terminal: boolean;
  readonly resources: PodRequests;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly requiredNodeAffinity: readonly NodeSelectorTerm[] | undefined;
  readonly preferredNodeAffinity: readonly PreferredTerm[];
  readonly tolerations: readonly Toleration[];
  readonly affinityTerms: readonly AffinityTerm[];
  readonly antiAffinityTerms: readonly AffinityTerm[];
  readonly spreadConstraints: readonly SpreadConstraint[];
  /** `protocol/hostIP/hostPort` of every container port with a hostPort. */
  readonly hostPorts: readonly string[];
  /** The PodScheduled condition as stored (to write only changes). */
  readonly scheduledCondition: JsonObject | undefined;
}

const nothing: LabelMatcher = () => false;

function matcherOf(sel: JsonObject | undefined): LabelMatcher {
  const s = asSelector(sel);
  return s.ok ? (l) => s.matches(l) : nothing;
}

function requirements(list: readonly JsonObject[]): NodeSelectorRequirement[] {
  return list.map((r) => ({
    key: strAt(r, 'key') ?? '',
    operator: strAt(r, 'operator') ?? '',
    values: strsAt(r, 'values'),
  }));
}

export function nodeSelectorTerm(t: JsonObject): NodeSelectorTerm {
  return {
    matchExpressions: requirements(objsAt(t, 'matchExpressions')),
    matchFields: requirements(objsAt(t, 'matchFields')),
  };
}

function affinityTerms(pod: { namespace: string }, terms: readonly JsonObject[]): AffinityTerm[] {
  return terms.map((t) => {
    const nsSel = objAt(t, 'namespaceSelector');
    const names = strsAt(t, 'namespaces');
    return {
      matches: matcherOf(objAt(t, 'labelSelector')),
      namespaces: new Set(names.length === 0 && nsSel === undefined ? [pod.namespace] : names),
      namespaceSelector: nsSel === undefined ? undefined : matcherOf(nsSel),
      topologyKey: strAt(t, 'topologyKey') ?? '',
    };
  });
}

function spreadConstraint(c: JsonObject, podLabels: Readonly<Record<string, string>>): SpreadConstraint {
  const base = matcherOf(objAt(c, 'labelSelector'));
  // matchLabelKeys (beta, on in v1.27): the pod's values for those keys join the selector.
  const pinned = strsAt(c, 'matchLabelKeys').flatMap((k) => {
    const v = podLabels[k];
    return v === undefined ? [] : [[k, v] as const];
  });
  const matches: LabelMatcher =
    pinned.length === 0 ? base : (l) => base(l) && pinned.every(([k, v]) => l[k] === v);
  const minDomains = numAt(c, 'minDomains');
  return {
    maxSkew: numAt(c, 'maxSkew') ?? 1,
    topologyKey: strAt(c, 'topologyKey') ?? '',
    whenUnsatisfiable: strAt(c, 'whenUnsatisfiable') ?? 'DoNotSchedule',
    matches,
    minDomains,
    nodeAffinityPolicy: strAt(c, 'nodeAffinityPolicy') ?? 'Honor',
    nodeTaintsPolicy: strAt(c, 'nodeTaintsPolicy') ?? 'Ignore',
  };
}

export function parseToleration(t: JsonObject): Toleration {
  return {
    key: strAt(t, 'key') ?? '',
    operator: strAt(t, 'operator') ?? 'Equal',
    value: strAt(t, 'value') ?? '',
    effect: strAt(t, 'effect') ?? '',
  };
}

export function parseTaint(t: JsonObject): Taint {
  return { key: strAt(t, 'key') ?? '', value: strAt(t, 'value') ?? '', effect: strAt(t, 'effect') ?? '' };
}

function timeMs(v: string | undefined): number {
  const t = v === undefined ? NaN : Date.parse(v);
  return Number.isNaN(t) ? 0 : t;
}

/** `protocol/hostIP/hostPort` of every container port of the pod spec with a hostPort. */
export function hostPortsOf(spec: JsonObject | undefined): string[] {
  const out: string[] = [];
  for (const c of [...objsAt(spec, 'initContainers'), ...objsAt(spec, 'containers')]) {
    for (const p of objsAt(c, 'ports')) {
      const hostPort = numAt(p, 'hostPort') ?? 0;
      if (hostPort > 0) out.push(`${strAt(p, 'protocol') ?? 'TCP'}/${strAt(p, 'hostIP') ?? ''}/${hostPort}`);
    }
  }
  return out;
}

export function parsePod(pod: JsonObject): PodInfo {
  const meta = metaOf(pod);
  const spec = objAt(pod, 'spec');
  const status = objAt(pod, 'status');
  const name = strAt(meta, 'name') ?? '';
  const namespace = strAt(meta, 'namespace') ?? '';
  const labels = stringMap(meta, 'labels');
  const affinity = objAt(spec, 'affinity');
  const nodeAff = objAt(affinity, 'nodeAffinity');
  const required = objAt(nodeAff, 'requiredDuringSchedulingIgnoredDuringExecution');
  const podAff = objAt(affinity, 'podAffinity');
  const podAnti = objAt(affinity, 'podAntiAffinity');
  const phase = strAt(status, 'phase');
  const hostPorts = hostPortsOf(spec);
  const ns = { namespace };
  return {
    key: namespace === '' ? name : `${namespace}/${name}`,
    name,
    namespace,
    uid: strAt(meta, 'uid') ?? '',
    labels,
    nodeName: strAt(spec, 'nodeName') ?? '',
    schedulerName: strAt(spec, 'schedulerName') ?? 'default-scheduler',
    priority: numAt(spec, 'priority') ?? 0,
    preemptionPolicy: strAt(spec, 'preemptionPolicy') ?? 'PreemptLowerPriority',
    nominatedNodeName: strAt(status, 'nominatedNodeName') ?? '',
    created: timeMs(strAt(meta, 'creationTimestamp')),
    gated: objsAt(spec, 'schedulingGates').length > 0,
    terminating: meta['deletionTimestamp'] !== undefined && meta['deletionTimestamp'] !== null,
    terminal: phase === 'Succeeded' || phase === 'Failed',
    resources: podRequests(spec),
    nodeSelector: stringMap(spec, 'nodeSelector'),
    requiredNodeAffinity:
      required === undefined ? undefined : objsAt(required, 'nodeSelectorTerms').map(nodeSelectorTerm),
    preferredNodeAffinity: objsAt(nodeAff, 'preferredDuringSchedulingIgnoredDuringExecution').map((p) => ({
      weight: numAt(p, 'weight') ?? 0,
      term: nodeSelectorTerm(objAt(p, 'preference') ?? {}),
    })),
    tolerations: objsAt(spec, 'tolerations').map(parseToleration),
    affinityTerms: affinityTerms(ns, objsAt(podAff, 'requiredDuringSchedulingIgnoredDuringExecution')),
    antiAffinityTerms: affinityTerms(ns, objsAt(podAnti, 'requiredDuringSchedulingIgnoredDuringExecution')),
    spreadConstraints: objsAt(spec, 'topologySpreadConstraints')
      .map((c) => spreadConstraint(c, labels))
      .filter((c) => c.whenUnsatisfiable === 'DoNotSchedule'),
    hostPorts,
    scheduledCondition: objsAt(status, 'conditions').find((c) => strAt(c, 'type') === 'PodScheduled'),
  };
}
