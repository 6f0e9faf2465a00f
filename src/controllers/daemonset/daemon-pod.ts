/**
 * Pure DaemonSet helpers of upstream v1.27 (pkg/controller/daemon and its util): the pod template
 * with the revision labels and the tolerations every daemon pod gets, the node affinity pinning a
 * pod to its node (`metadata.name In [node]` in matchFields, so the scheduler binds it), and
 * whether a node should run (and may keep running) a daemon pod: nodeSelector, required node
 * affinity and taints (NoSchedule and NoExecute; NoExecute alone for keeping a pod).
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { controllerRevisionHashLabel } from '../util/history.js';
import { arr, labels, name, obj, str, stringMap } from '../util/objects.js';

export const templateGenerationLabel = 'pod-template-generation';
/** The annotation carrying a DaemonSet's template generation (the internal spec.templateGeneration). */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

/** util.GetTemplateGeneration: the annotation as an integer; undefined when absent or invalid. */
export function templateGeneration(ds: JsonObject): number | undefined {
  const v = stringMap(obj(ds['metadata'])['annotations'])[templateGenerationAnnotation];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** util.IsPodUpdated: the pod carries the current revision hash or template generation. */
export function isPodUpdated(pod: JsonObject, hash: string, generation: number | undefined): boolean {
  const l = labels(pod);
  const templateMatches = generation !== undefined && l[templateGenerationLabel] === String(generation);
  const hashMatches = hash !== '' && l[controllerRevisionHashLabel] === hash;
  return hashMatches || templateMatches;
}

const exists = (key: string, effect: string): JsonObject => ({ key, operator: 'Exists', effect });

/** util.AddOrUpdateDaemonPodTolerations, in upstream's order. */
export function daemonTolerations(hostNetwork: boolean): JsonObject[] {
  const out = [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
  ];
  if (hostNetwork) out.push(exists('node.kubernetes.io/network-unavailable', 'NoSchedule'));
  return out;
}

/** AddOrUpdateTolerationInPodSpec: a toleration with the same key, operator, value and effect is replaced. */
function addTolerations(existing: readonly JsonValue[], extra: readonly JsonObject[]): JsonValue[] {
  const out = [...existing];
  for (const t of extra) {
    const same = (x: JsonValue): boolean =>
      isJsonObject(x) &&
      str(x['key']) === str(t['key']) &&
      (str(x['operator']) || 'Equal') === str(t['operator']) &&
      str(x['value']) === str(t['value']) &&
      str(x['effect']) === str(t['effect']);
    const i = out.findIndex(same);
    if (i >= 0) out[i] = t;
    else out.push(t);
  }
  return out;
}

/** util.CreatePodTemplate: the template's labels plus the generation and hash, with the daemon tolerations. */
export function daemonPodTemplate(ds: JsonObject, generation: number | undefined, hash: string): JsonObject {
  const template = obj(obj(ds['spec'])['template']);
  const tm = obj(template['metadata']);
  const spec: JsonObject = { ...obj(template['spec']) };
  spec['tolerations'] = addTolerations(
    arr(spec['tolerations']),
    daemonTolerations(spec['hostNetwork'] === true),
  );
  return {
    ...template,
    metadata: {
      ...tm,
      labels: {
        ...stringMap(tm['labels']),
        ...(generation !== undefined ? { [templateGenerationLabel]: String(generation) } : {}),
        ...(hash !== '' ? { [controllerRevisionHashLabel]: hash } : {}),
      },
    },
    spec,
  };
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: required terms become `metadata.name In [node]`; preferred kept. */
export function pinToNode(affinity: JsonValue | undefined, node: string): JsonObject {
  const a = obj(affinity);
  const na = obj(a['nodeAffinity']);
  return {
    ...a,
    nodeAffinity: {
      ...na,
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
      },
    },
  };
}

/** util.GetTargetNodeName: the node a daemon pod is for (spec.nodeName, or the pinned affinity). */
export function targetNodeName(pod: JsonObject): string | undefined {
  const spec = obj(pod['spec']);
  const nodeName = str(spec['nodeName']);
  if (nodeName !== '') return nodeName;
  const required = obj(
    obj(obj(spec['affinity'])['nodeAffinity'])['requiredDuringSchedulingIgnoredDuringExecution'],
  );
  for (const term of arr(required['nodeSelectorTerms'])) {
    for (const f of arr(obj(term)['matchFields'])) {
      const r = obj(f);
      const values = arr(r['values']);
      if (str(r['key']) === 'metadata.name' && str(r['operator']) === 'In' && values.length === 1) {
        return str(values[0]);
      }
    }
  }
  return undefined;
}

function requirementMatches(r: JsonObject, value: string | undefined): boolean {
  const values = arr(r['values']).map((v) => str(v));
  switch (str(r['operator'])) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value)) return false;
      const a = Number(value);
      const b = Number(values[0]);
      return str(r['operator']) === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A node selector term: every expression (labels) and field (metadata.name) requirement holds; an empty term matches nothing. */
function termMatches(term: JsonObject, node: JsonObject): boolean {
  const exprs = arr(term['matchExpressions']).map(obj);
  const fields = arr(term['matchFields']).map(obj);
  if (exprs.length === 0 && fields.length === 0) return false;
  const l = labels(node);
  for (const e of exprs) if (!requirementMatches(e, l[str(e['key'])])) return false;
  for (const f of fields) {
    if (str(f['key']) !== 'metadata.name' || !requirementMatches(f, name(node))) return false;
  }
  return true;
}

/** nodeSelector and required node affinity (component-helpers' GetRequiredNodeAffinity). */
export function fitsNodeAffinity(podSpec: JsonObject, node: JsonObject): boolean {
  const l = labels(node);
  for (const [k, v] of Object.entries(stringMap(podSpec['nodeSelector']))) if (l[k] !== v) return false;
  const required = obj(
    obj(obj(podSpec['affinity'])['nodeAffinity'])['requiredDuringSchedulingIgnoredDuringExecution'],
  );
  if (
    podSpec['affinity'] === undefined ||
    obj(obj(podSpec['affinity'])['nodeAffinity'])['requiredDuringSchedulingIgnoredDuringExecution'] ===
      undefined
  ) {
    return true;
  }
  return arr(required['nodeSelectorTerms']).some((t) => termMatches(obj(t), node));
}

/** v1helper.TolerationsTolerateTaint. */
export function tolerates(tolerations: readonly JsonValue[], taint: JsonObject): boolean {
  return tolerations.some((x) => {
    const t = obj(x);
    const effect = str(t['effect']);
    if (effect !== '' && effect !== str(taint['effect'])) return false;
    const key = str(t['key']);
    const op = str(t['operator']) || 'Equal';
    if (key === '') return op === 'Exists';
    if (key !== str(taint['key'])) return false;
    return op === 'Exists' || str(t['value']) === str(taint['value']);
  });
}

export interface NodeFit {
  /** The node should run a daemon pod. */
  readonly shouldRun: boolean;
  /** A daemon pod already there may stay. */
  readonly shouldContinueRunning: boolean;
}

/** NodeShouldRunDaemonPod with the pod the controller would create (tolerations included). */
export function nodeShouldRunDaemonPod(node: JsonObject, template: JsonObject): NodeFit {
  const spec = obj(template['spec']);
  const pinned = str(spec['nodeName']);
  if (pinned !== '' && pinned !== name(node)) return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = arr(spec['tolerations']);
  const taints = arr(obj(node['spec'])['taints']).map(obj);
  const untolerated = (effects: readonly string[]): boolean =>
    taints.some((t) => effects.includes(str(t['effect'])) && !tolerates(tolerations, t));
  return {
    shouldRun: !untolerated(['NoSchedule', 'NoExecute']),
    shouldContinueRunning: !untolerated(['NoExecute']),
  };
}
