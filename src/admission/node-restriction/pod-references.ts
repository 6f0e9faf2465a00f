/**
 * Whether a pod references secrets or config maps by name (upstream pkg/api/pod's
 * VisitPodSecretNames / VisitPodConfigmapNames over all containers, v1.27): image pull secrets,
 * `envFrom` and `env[].valueFrom` of init, regular and ephemeral containers, and the volume
 * sources that name one. Empty names are not references. As upstream's `switch`, only the first
 * set source of a volume counts.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isSet, objectsAt, stringAt } from './json-fields.js';

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** The volume sources that name a secret, in upstream's `switch` order, and where the name sits. */
const secretVolumeSources: readonly (readonly [source: string, ...path: string[]])[] = [
  ['azureFile', 'secretName'],
  ['cephfs', 'secretRef', 'name'],
  ['cinder', 'secretRef', 'name'],
  ['flexVolume', 'secretRef', 'name'],
  ['projected'],
  ['rbd', 'secretRef', 'name'],
  ['secret', 'secretName'],
  ['scaleIO', 'secretRef', 'name'],
  ['iscsi', 'secretRef', 'name'],
  ['storageos', 'secretRef', 'name'],
  ['csi', 'nodePublishSecretRef', 'name'],
];

function containers(pod: KubeObject): JsonObject[] {
  return containerLists.flatMap((list) => objectsAt(pod, 'spec', list));
}

/** Names referenced from containers' `envFrom[].<from>.name` and `env[].valueFrom.<keyRef>.name`. */
function containerNames(pod: KubeObject, from: string, keyRef: string): string[] {
  const names: string[] = [];
  for (const c of containers(pod)) {
    for (const env of objectsAt(c, 'envFrom')) if (isSet(env, from)) names.push(stringAt(env, from, 'name'));
    for (const env of objectsAt(c, 'env')) {
      if (isSet(env, 'valueFrom', keyRef)) names.push(stringAt(env, 'valueFrom', keyRef, 'name'));
    }
  }
  return names;
}

/** Names of the projected volume's sources of the given kind (`secret` or `configMap`). */
function projectedNames(source: JsonValue | undefined, kind: string): string[] {
  return objectsAt(source, 'sources')
    .filter((s) => isSet(s, kind))
    .map((s) => stringAt(s, kind, 'name'));
}

function secretVolumeNames(volume: JsonObject): string[] {
  for (const [source, ...path] of secretVolumeSources) {
    if (!isSet(volume, source)) continue;
    if (source === 'projected') return projectedNames(volume[source], 'secret');
    return [stringAt(volume, source, ...path)];
  }
  return [];
}

function configMapVolumeNames(volume: JsonObject): string[] {
  if (isSet(volume, 'projected')) return projectedNames(volume['projected'], 'configMap');
  if (isSet(volume, 'configMap')) return [stringAt(volume, 'configMap', 'name')];
  return [];
}

export function referencesSecrets(pod: KubeObject): boolean {
  const names = [
    ...objectsAt(pod, 'spec', 'imagePullSecrets').map((r) => stringAt(r, 'name')),
    ...containerNames(pod, 'secretRef', 'secretKeyRef'),
    ...objectsAt(pod, 'spec', 'volumes').flatMap(secretVolumeNames),
  ];
  return names.some((n) => n !== '');
}

export function referencesConfigMaps(pod: KubeObject): boolean {
  const names = [
    ...containerNames(pod, 'configMapRef', 'configMapKeyRef'),
    ...objectsAt(pod, 'spec', 'volumes').flatMap(configMapVolumeNames),
  ];
  return names.some((n) => n !== '');
}

/** A volume with a `persistentVolumeClaim` source (ephemeral volumes' claims are not counted). */
export function referencesClaims(pod: KubeObject): boolean {
  return objectsAt(pod, 'spec', 'volumes').some((v) => isSet(v, 'persistentVolumeClaim'));
}

/** `spec.serviceAccountName`, or the deprecated `spec.serviceAccount` (v1 to internal conversion). */
export function serviceAccountName(pod: KubeObject): string {
  return stringAt(pod, 'spec', 'serviceAccountName') || stringAt(pod, 'spec', 'serviceAccount');
}
