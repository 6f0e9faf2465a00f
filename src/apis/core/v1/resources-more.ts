/**
 * The remaining core/v1 kinds: LimitRange, ResourceQuota, PersistentVolume,
 * PersistentVolumeClaim, PodTemplate and ReplicationController, as kube-apiserver v1.27 discovers
 * them (short names, categories, subresources).
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultLimitRange } from './defaults/limitrange.js';
import { defaultPersistentVolume, defaultPersistentVolumeClaim } from './defaults/persistentvolume.js';
import { defaultPodTemplate, defaultReplicationController } from './defaults/replicationcontroller.js';

const core = { group: '', version: 'v1', verbs: allVerbs } as const;
const def = (kind: string): string => `io.k8s.api.core.v1.${kind}`;

export const limitRangesInfo: ResourceInfo = {
  ...core,
  kind: 'LimitRange',
  resource: 'limitranges',
  singular: 'limitrange',
  namespaced: true,
  shortNames: ['limits'],
  definition: def('LimitRange'),
  defaulter: defaultLimitRange,
};

export const resourceQuotasInfo: ResourceInfo = {
  ...core,
  kind: 'ResourceQuota',
  resource: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  definition: def('ResourceQuota'),
  statusSubresource: true,
};

export const persistentVolumesInfo: ResourceInfo = {
  ...core,
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  singular: 'persistentvolume',
  namespaced: false,
  shortNames: ['pv'],
  definition: def('PersistentVolume'),
  statusSubresource: true,
  defaulter: defaultPersistentVolume,
};

export const persistentVolumeClaimsInfo: ResourceInfo = {
  ...core,
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  definition: def('PersistentVolumeClaim'),
  statusSubresource: true,
  defaulter: defaultPersistentVolumeClaim,
};

export const podTemplatesInfo: ResourceInfo = {
  ...core,
  kind: 'PodTemplate',
  resource: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  definition: def('PodTemplate'),
  defaulter: defaultPodTemplate,
};

/**
 * ReplicationControllers scale through autoscaling/v1 Scale like the apps workloads. The RC
 * selector is a plain label map, which the shared scale handler cannot render as a selector string
 * (it reads `matchLabels`), so no labelSelectorPath is given: `status.selector` of the Scale is
 * left out rather than printed wrong.
 */
export const replicationControllersInfo: ResourceInfo = {
  ...core,
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  definition: def('ReplicationController'),
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
  defaulter: defaultReplicationController,
};

export const coreV1MoreInfos: readonly ResourceInfo[] = [
  limitRangesInfo,
  persistentVolumeClaimsInfo,
  persistentVolumesInfo,
  podTemplatesInfo,
  replicationControllersInfo,
  resourceQuotasInfo,
];
