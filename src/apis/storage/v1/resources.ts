/**
 * storage.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. CSIStorageCapacity
 * is served at v1 only (its v1beta1 is not offered here).
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultCSIDriver, defaultStorageClass, defaultVolumeAttachment } from './defaults.js';

const base = { group: 'storage.k8s.io', version: 'v1', verbs: allVerbs } as const;

export const storageClassInfo: ResourceInfo = {
  ...base,
  kind: 'StorageClass',
  resource: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  definition: 'io.k8s.api.storage.v1.StorageClass',
  defaulter: defaultStorageClass,
};

export const csiDriverInfo: ResourceInfo = {
  ...base,
  kind: 'CSIDriver',
  resource: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  definition: 'io.k8s.api.storage.v1.CSIDriver',
  defaulter: defaultCSIDriver,
};

export const csiNodeInfo: ResourceInfo = {
  ...base,
  kind: 'CSINode',
  resource: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  definition: 'io.k8s.api.storage.v1.CSINode',
};

export const volumeAttachmentInfo: ResourceInfo = {
  ...base,
  kind: 'VolumeAttachment',
  resource: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  definition: 'io.k8s.api.storage.v1.VolumeAttachment',
  statusSubresource: true,
  defaulter: defaultVolumeAttachment,
};

export const csiStorageCapacityInfo: ResourceInfo = {
  ...base,
  kind: 'CSIStorageCapacity',
  resource: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  definition: 'io.k8s.api.storage.v1.CSIStorageCapacity',
};

export const storageV1ResourceInfos: readonly ResourceInfo[] = [
  csiDriverInfo,
  csiNodeInfo,
  csiStorageCapacityInfo,
  storageClassInfo,
  volumeAttachmentInfo,
];
