/**
 * storage.k8s.io/v1 defaults (upstream pkg/apis/storage/v1/defaults.go and the generated
 * defaulters, v1.27), in place on decoded JSON.
 */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, setDefault, setDefaultStr } from '../../core/v1/access.js';

/** SetDefaults_StorageClass: reclaim policy Delete, binding mode Immediate. */
export function defaultStorageClass(sc: JsonObject): void {
  setDefault(sc, 'reclaimPolicy', 'Delete');
  setDefault(sc, 'volumeBindingMode', 'Immediate');
}

/**
 * SetDefaults_CSIDriver. `seLinuxMount` is defaulted only with the SELinuxMountReadWriteOncePod
 * gate, which is beta and on by default in v1.27; defaulters see no gates here, so it is always
 * defaulted (the strategy drops it again when the gate is turned off).
 */
export function defaultCSIDriver(driver: JsonObject): void {
  const spec = ensureObj(driver, 'spec');
  setDefault(spec, 'attachRequired', true);
  setDefault(spec, 'podInfoOnMount', false);
  setDefault(spec, 'storageCapacity', false);
  setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  const modes = spec['volumeLifecycleModes'];
  if (!Array.isArray(modes) || modes.length === 0) spec['volumeLifecycleModes'] = ['Persistent'];
  setDefault(spec, 'requiresRepublish', false);
  setDefault(spec, 'seLinuxMount', false);
}

/**
 * SetObjectDefaults_VolumeAttachment: only an inline PersistentVolumeSpec has defaults, those of its
 * volume sources (core/v1 SetDefaults_HostPathVolumeSource, RBD, ISCSI, AzureDisk and ScaleIO).
 * Its capacity quantities are canonicalised by the decoder.
 */
export function defaultVolumeAttachment(va: JsonObject): void {
  const pv = obj(obj(obj(va, 'spec'), 'source'), 'inlineVolumeSpec');
  if (pv === undefined) return;
  const hostPath = obj(pv, 'hostPath');
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
  const rbd = obj(pv, 'rbd');
  if (rbd !== undefined) {
    setDefaultStr(rbd, 'pool', 'rbd');
    setDefaultStr(rbd, 'user', 'admin');
    setDefaultStr(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const iscsi = obj(pv, 'iscsi');
  if (iscsi !== undefined) setDefaultStr(iscsi, 'iscsiInterface', 'default');
  const azureDisk = obj(pv, 'azureDisk');
  if (azureDisk !== undefined) {
    setDefault(azureDisk, 'cachingMode', 'ReadWrite');
    setDefault(azureDisk, 'kind', 'Shared');
    setDefault(azureDisk, 'fsType', 'ext4');
    setDefault(azureDisk, 'readOnly', false);
  }
  const scaleIO = obj(pv, 'scaleIO');
  if (scaleIO !== undefined) {
    setDefaultStr(scaleIO, 'storageMode', 'ThinProvisioned');
    setDefaultStr(scaleIO, 'fsType', 'xfs');
  }
}
