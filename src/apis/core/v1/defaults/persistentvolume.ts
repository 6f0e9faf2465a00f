/**
 * PersistentVolume and PersistentVolumeClaim defaults (upstream SetDefaults_PersistentVolume,
 * _PersistentVolumeClaim, _PersistentVolumeClaimSpec and the persistent volume source defaulters).
 */
import type { JsonObject } from '../../../../util/json.js';
import { ensureObj, obj, setDefault, setDefaultStr } from '../access.js';

function defaultPersistentVolumeSources(spec: JsonObject): void {
  const hostPath = obj(spec, 'hostPath');
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
  const rbd = obj(spec, 'rbd');
  if (rbd !== undefined) {
    setDefaultStr(rbd, 'pool', 'rbd');
    setDefaultStr(rbd, 'user', 'admin');
    setDefaultStr(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const iscsi = obj(spec, 'iscsi');
  if (iscsi !== undefined) setDefaultStr(iscsi, 'iscsiInterface', 'default');
  const azureDisk = obj(spec, 'azureDisk');
  if (azureDisk !== undefined) {
    setDefault(azureDisk, 'cachingMode', 'ReadWrite');
    setDefault(azureDisk, 'kind', 'Shared');
    setDefault(azureDisk, 'fsType', 'ext4');
    setDefault(azureDisk, 'readOnly', false);
  }
  const scaleIO = obj(spec, 'scaleIO');
  if (scaleIO !== undefined) {
    setDefaultStr(scaleIO, 'storageMode', 'ThinProvisioned');
    setDefaultStr(scaleIO, 'fsType', 'xfs');
  }
}

/** Phase Pending, reclaim policy Retain, volume mode Filesystem, source defaults. */
export function defaultPersistentVolume(pv: JsonObject): void {
  setDefaultStr(ensureObj(pv, 'status'), 'phase', 'Pending');
  const spec = ensureObj(pv, 'spec');
  setDefaultStr(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
  defaultPersistentVolumeSources(spec);
}

/** Phase Pending, volume mode Filesystem. */
export function defaultPersistentVolumeClaim(pvc: JsonObject): void {
  setDefaultStr(ensureObj(pvc, 'status'), 'phase', 'Pending');
  setDefault(ensureObj(pvc, 'spec'), 'volumeMode', 'Filesystem');
}
