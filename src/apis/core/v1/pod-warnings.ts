/**
 * Warnings for a pod spec and its metadata, as upstream v1.27 pkg/api/pod/warnings.go
 * (warningsForPodSpecAndMeta): deprecated node labels in nodeSelector, node affinity and topology
 * spread keys; deprecated annotations, including the seccomp annotations without their field
 * (non-functional since v1.27); deprecated volume plugins; duplicate hostAliases IPs and
 * imagePullSecrets, empty imagePullSecret names; duplicate env names per container; a negative
 * terminationGracePeriodSeconds. `prefix` is the template's path (`spec.template` for a
 * Deployment) or '' for a Pod.
 *
 * Not done yet: fractional memory/ephemeral-storage values and the ephemeral volume claim
 * template's PVC warnings.
 */
import type { JsonObject } from '../../../util/json.js';
import { indexedObjs, num, obj, objArr, str, strMap } from './access.js';

const deprecatedNodeLabels: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region':
    'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone':
    'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type':
    'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/** Upstream nodeapi.GetNodeLabelDeprecatedMessage. */
export function nodeLabelDeprecation(key: string): string | undefined {
  return Object.hasOwn(deprecatedNodeLabels, key) ? deprecatedNodeLabels[key] : undefined;
}

const deprecatedAnnotations: readonly (readonly [key: string, message: string])[] = [
  [
    'scheduler.alpha.kubernetes.io/critical-pod',
    'non-functional in v1.16+; use the "priorityClassName" field instead',
  ],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  [
    'security.alpha.kubernetes.io/unsafe-sysctls',
    'non-functional in v1.11+; use the "sysctls" field instead',
  ],
];

const deprecatedVolumes: readonly (readonly [field: string, message: string])[] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, support removal is planned in v1.26'],
  ['storageos', 'deprecated in v1.22, support removal is planned in v1.26'],
  ['quobyte', 'deprecated in v1.22, support removal is planned in v1.26'],
  ['glusterfs', 'deprecated in v1.25, this feature will be removed soon after in a subsequent release'],
];

const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const seccompMessage = 'non-functional in v1.27+; use the "seccompProfile" field instead';

function duplicates(items: JsonObject[], key: string, path: (i: number) => string, what: string): string[] {
  if (items.length < 2) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  items.forEach((item, i) => {
    const v = str(item, key) ?? '';
    if (seen.has(v)) out.push(`${path(i)}: duplicate ${what} ${JSON.stringify(v)}`);
    else seen.add(v);
  });
  return out;
}

/** Upstream warningsForPodSpecAndMeta for a pod's (or template's) `spec` and `metadata`. */
export function podSpecWarnings(
  prefix: string,
  spec: JsonObject | undefined,
  meta: JsonObject | undefined,
): string[] {
  const p = (rest: string): string => (prefix === '' ? rest : `${prefix}.${rest}`);
  const warnings: string[] = [];
  const annotations = strMap(meta, 'annotations') ?? {};

  for (const key of Object.keys(strMap(spec, 'nodeSelector') ?? {})) {
    const msg = nodeLabelDeprecation(key);
    if (msg !== undefined) warnings.push(`${p('spec.nodeSelector')}[${key}]: ${msg}`);
  }
  const nodeAffinity = obj(obj(spec, 'affinity'), 'nodeAffinity');
  const termWarnings = (term: JsonObject | undefined, path: string): void => {
    for (const [i, expr] of indexedObjs(term, 'matchExpressions')) {
      const key = str(expr, 'key') ?? '';
      const msg = nodeLabelDeprecation(key);
      if (msg !== undefined) warnings.push(`${path}.matchExpressions[${i}].key: ${key} is ${msg}`);
    }
  };
  const required = obj(nodeAffinity, 'requiredDuringSchedulingIgnoredDuringExecution');
  for (const [i, term] of indexedObjs(required, 'nodeSelectorTerms')) {
    termWarnings(
      term,
      p(`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`),
    );
  }
  for (const [i, pref] of indexedObjs(nodeAffinity, 'preferredDuringSchedulingIgnoredDuringExecution')) {
    termWarnings(
      obj(pref, 'preference'),
      p(`spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`),
    );
  }
  for (const [i, c] of indexedObjs(spec, 'topologySpreadConstraints')) {
    const key = str(c, 'topologyKey') ?? '';
    const msg = nodeLabelDeprecation(key);
    if (msg !== undefined)
      warnings.push(`${p(`spec.topologySpreadConstraints[${i}].topologyKey`)}: ${key} is ${msg}`);
  }

  for (const [key, message] of deprecatedAnnotations) {
    if (Object.hasOwn(annotations, key)) warnings.push(`${p('metadata.annotations')}[${key}]: ${message}`);
  }

  for (const [i, v] of indexedObjs(spec, 'volumes')) {
    for (const [field, message] of deprecatedVolumes) {
      if (obj(v, field) !== undefined) warnings.push(`${p(`spec.volumes[${i}].${field}`)}: ${message}`);
    }
  }

  warnings.push(
    ...duplicates(objArr(spec, 'hostAliases'), 'ip', (i) => p(`spec.hostAliases[${i}].ip`), 'ip'),
  );
  const pullSecrets = objArr(spec, 'imagePullSecrets');
  const pullSecretPath = (i: number): string => p(`spec.imagePullSecrets[${i}].name`);
  warnings.push(...duplicates(pullSecrets, 'name', pullSecretPath, 'name'));
  pullSecrets.forEach((s, i) => {
    if ((str(s, 'name') ?? '') === '') warnings.push(`${pullSecretPath(i)}: invalid empty name ""`);
  });

  if (obj(obj(spec, 'securityContext'), 'seccompProfile') === undefined) {
    if (Object.hasOwn(annotations, seccompPodAnnotation)) {
      warnings.push(`${p('metadata.annotations')}[${seccompPodAnnotation}]: ${seccompMessage}`);
    }
  }
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const [i, c] of indexedObjs(spec, list)) {
      const key = `${seccompContainerPrefix}${str(c, 'name') ?? ''}`;
      if (obj(obj(c, 'securityContext'), 'seccompProfile') === undefined && Object.hasOwn(annotations, key)) {
        warnings.push(`${p('metadata.annotations')}[${key}]: ${seccompMessage}`);
      }
      warnings.push(
        ...duplicates(objArr(c, 'env'), 'name', (j) => p(`spec.${list}[${i}].env[${j}].name`), 'name'),
      );
    }
  }

  const grace = num(spec, 'terminationGracePeriodSeconds');
  if (grace !== undefined && grace < 0) {
    warnings.push(
      `${p('spec.terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`,
    );
  }
  return warnings;
}

/** Upstream GetWarningsForPodTemplate for the template at `path` (e.g. `spec.template`). */
export function podTemplateWarnings(path: string, template: JsonObject | undefined): string[] {
  if (template === undefined) return [];
  return podSpecWarnings(path, obj(template, 'spec'), obj(template, 'metadata'));
}

/** The warnings of a workload's `spec.template` (Deployment, ReplicaSet, StatefulSet, DaemonSet, RC). */
export function specTemplateWarnings(workload: JsonObject): string[] {
  return podTemplateWarnings('spec.template', obj(obj(workload, 'spec'), 'template'));
}
