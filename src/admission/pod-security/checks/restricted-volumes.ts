/**
 * Restricted, v1.0+ (replacing the baseline hostPath check): inline volumes only of the types
 * configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret
 * (upstream check_restrictedVolumes.go).
 */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  sortedSet,
  type Check,
  type CheckPodFn,
} from '../check.js';
import { isSet, objectsField, stringField } from '../pod-fields.js';
import { hostPathVolumesID } from './host-path-volumes.js';

const allowedSources: readonly string[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/** The restricted sources in the order upstream names the first one set. */
const restrictedSources: readonly string[] = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const restrictedVolumes_1_0: CheckPodFn = (_meta, spec) => {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of objectsField(spec, 'volumes')) {
    if (allowedSources.some((s) => isSet(volume, s))) continue;
    badVolumes.push(stringField(volume, 'name'));
    badTypes.push(restrictedSources.find((s) => isSet(volume, s)) ?? 'unknown');
  }
  if (badVolumes.length === 0) return allowedResult;
  const types = sortedSet(badTypes);
  return forbiddenResult(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ` +
      `${pluralize('uses', 'use', badVolumes.length)} ` +
      `${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
};

export const restrictedVolumesCheck: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumVersion: 0, checkPod: restrictedVolumes_1_0, overrideCheckIDs: [hostPathVolumesID] }],
};
