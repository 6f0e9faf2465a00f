/**
 * Warnings for a pod spec and its metadata, as upstream v1.27 pkg/api/pod/warnings.go
 * (warningsForPodSpecAndMeta), in upstream's order:
 *
 * 1. deprecated node labels in nodeSelector, node affinity terms and topology spread keys;
 * 2. deprecated annotations (critical-pod, sysctls);
 * 3. deprecated volume plugins, and the fractional storage sizes of ephemeral volume claim
 *    templates (pvcutil.GetWarningsForPersistentVolumeClaimSpec);
 * 4. duplicate hostAliases IPs, duplicate and empty imagePullSecrets names, duplicate volume names
 *    (unreachable: validation rejects those first, as upstream);
 * 5. fractional memory / ephemeral-storage in spec.overhead;
 * 6. the seccomp pod annotation without the field (non-functional since v1.27);
 * 7. per container (init, regular, ephemeral): the seccomp container annotation without the field,
 *    fractional memory / ephemeral-storage limits and requests, duplicate env names
 *    (`env[i].name: duplicate name "X"`);
 * 8. a negative terminationGracePeriodSeconds (templates only in effect: a Pod's negative value is
 *    turned into 1 before, see defaultPod).
 *
 * Matched version: release-1.27 (v1.27.0, April 2023). No v1.27 copy of warnings.go is stored in
 * the reference index (its copies are v1.25-era or v1.28+), so this is the v1.28+ text minus what
 * was merged after the v1.27 code freeze (March 2023), checked against the PR history:
 * #117025 (null labelSelector warnings, opened 2023-03-31), #118547 (env "hides previous
 * definition", June 2023), #118548 (drops the duplicate volume name warning, June 2023), #113245
 * (container port warnings, July 2023), the cephfs/rbd deprecations (v1.28), #122126 (env text,
 * v1.30) and AppArmor (v1.30); and with what v1.27 did merge: #115035 (January 2023, the removed
 * plugins' "non-functional" texts), #114947 (January 2023, seccomp annotations non-functional),
 * #115606 (v1.27 changelog, negative grace period). `prefix` is the template's path
 * (`spec.template` for a Deployment) or '' for a Pod.
 */
import {
  canonicalQuantityString,
  parseQuantityJSON,
  quantityMilliValue,
} from '../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../machinery/quantity/quantity.js';
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
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
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

/**
 * Upstream's `value.MilliValue()%1000 != 0` check on `resources[name]` at `path` (a map field such
 * as `limits`), with the value printed as Quantity.String() does. Unparsable values were refused
 * by validation before warnings are computed.
 */
function fractionalBytes(resources: JsonObject | undefined, name: string, path: string): string[] {
  if (resources === undefined || !Object.hasOwn(resources, name)) return [];
  const q = quantityOrUndefined(resources[name]);
  if (q === undefined || quantityMilliValue(q) % 1000n === 0n) return [];
  const text = JSON.stringify(canonicalQuantityString(q));
  return [`${path}[${name}]: fractional byte value ${text} is invalid, must be an integer`];
}

function quantityOrUndefined(v: unknown): Quantity | undefined {
  try {
    return parseQuantityJSON(v);
  } catch {
    return undefined;
  }
}

/** Upstream pvcutil.GetWarningsForPersistentVolumeClaimSpec (v1.27) for the claim spec at `path`. */
export function persistentVolumeClaimSpecWarnings(path: string, spec: JsonObject | undefined): string[] {
  const resources = obj(spec, 'resources');
  return [
    ...fractionalBytes(obj(resources, 'requests'), 'storage', `${path}.resources.requests`),
    ...fractionalBytes(obj(resources, 'limits'), 'storage', `${path}.resources.limits`),
  ];
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
    const claimTemplate = obj(obj(v, 'ephemeral'), 'volumeClaimTemplate');
    if (claimTemplate !== undefined) {
      warnings.push(
        ...persistentVolumeClaimSpecWarnings(
          p(`spec.volumes[${i}].ephemeral.volumeClaimTemplate.spec`),
          obj(claimTemplate, 'spec'),
        ),
      );
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
  // Unreachable (validation refuses duplicate volume names first) until upstream dropped it in v1.28.
  warnings.push(...duplicates(objArr(spec, 'volumes'), 'name', (i) => p(`spec.volumes[${i}].name`), 'name'));

  const overhead = obj(spec, 'overhead');
  warnings.push(...fractionalBytes(overhead, 'memory', p('spec.overhead')));
  warnings.push(...fractionalBytes(overhead, 'ephemeral-storage', p('spec.overhead')));

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
      const containerPath = p(`spec.${list}[${i}]`);
      const resources = obj(c, 'resources');
      const limits = obj(resources, 'limits');
      const requests = obj(resources, 'requests');
      warnings.push(
        ...fractionalBytes(limits, 'memory', `${containerPath}.resources.limits`),
        ...fractionalBytes(requests, 'memory', `${containerPath}.resources.requests`),
        ...fractionalBytes(limits, 'ephemeral-storage', `${containerPath}.resources.limits`),
        ...fractionalBytes(requests, 'ephemeral-storage', `${containerPath}.resources.requests`),
      );
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
