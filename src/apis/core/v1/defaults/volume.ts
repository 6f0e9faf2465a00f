/** Volume source defaults (upstream SetDefaults_Volume and the per-source defaulters). */
import type { JsonObject } from '../../../../util/json.js';
import { obj, objArr, setDefault, setDefaultStr } from '../access.js';
import { defaultObjectFieldSelector } from './container.js';

/** Every volume source field of a v1 Volume (besides `name`). */
export const volumeSourceKeys = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
] as const;

const defaultMode = 420;

function defaultDownwardAPIItems(items: JsonObject[]): void {
  for (const item of items) defaultObjectFieldSelector(obj(item, 'fieldRef'));
}

function defaultProjected(p: JsonObject): void {
  setDefault(p, 'defaultMode', defaultMode);
  for (const source of objArr(p, 'sources')) {
    defaultDownwardAPIItems(objArr(obj(source, 'downwardAPI'), 'items'));
    const token = obj(source, 'serviceAccountToken');
    if (token !== undefined) setDefault(token, 'expirationSeconds', 3600);
  }
}

export function defaultVolume(v: JsonObject): void {
  if (!volumeSourceKeys.some((k) => v[k] !== undefined && v[k] !== null)) {
    v['emptyDir'] = {};
    return;
  }
  const hostPath = obj(v, 'hostPath');
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
  for (const key of ['secret', 'configMap', 'downwardAPI'] as const) {
    const source = obj(v, key);
    if (source !== undefined) setDefault(source, 'defaultMode', defaultMode);
  }
  defaultDownwardAPIItems(objArr(obj(v, 'downwardAPI'), 'items'));
  const projected = obj(v, 'projected');
  if (projected !== undefined) defaultProjected(projected);
  const iscsi = obj(v, 'iscsi');
  if (iscsi !== undefined) setDefaultStr(iscsi, 'iscsiInterface', 'default');
  const rbd = obj(v, 'rbd');
  if (rbd !== undefined) {
    setDefaultStr(rbd, 'pool', 'rbd');
    setDefaultStr(rbd, 'user', 'admin');
    setDefaultStr(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = obj(v, 'azureDisk');
  if (azureDisk !== undefined) {
    setDefault(azureDisk, 'cachingMode', 'ReadWrite');
    setDefault(azureDisk, 'kind', 'Shared');
    setDefault(azureDisk, 'fsType', 'ext4');
    setDefault(azureDisk, 'readOnly', false);
  }
  const scaleIO = obj(v, 'scaleIO');
  if (scaleIO !== undefined) {
    setDefaultStr(scaleIO, 'storageMode', 'ThinProvisioned');
    setDefaultStr(scaleIO, 'fsType', 'xfs');
  }
  const claimSpec = obj(obj(obj(v, 'ephemeral'), 'volumeClaimTemplate'), 'spec');
  if (claimSpec !== undefined) setDefault(claimSpec, 'volumeMode', 'Filesystem');
}
