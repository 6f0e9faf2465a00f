/** apps/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo, ScaleSubresource } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet, defaultStatefulSet } from './defaults.js';

/**
 * Upstream's scale subresource of the apps workloads reads spec.replicas / status.replicas and
 * formats the selector from `.spec.selector` (a metav1.LabelSelector object, not a string as in
 * CRD scale): the scale handler must render it with FormatLabelSelector.
 */
const appsScale: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.spec.selector',
};

const base = { group: 'apps', version: 'v1', namespaced: true, verbs: allVerbs } as const;

export const deploymentInfo: ResourceInfo = {
  ...base,
  kind: 'Deployment',
  resource: 'deployments',
  singular: 'deployment',
  shortNames: ['deploy'],
  categories: ['all'],
  definition: 'io.k8s.api.apps.v1.Deployment',
  statusSubresource: true,
  scale: appsScale,
  defaulter: defaultDeployment,
};

export const replicaSetInfo: ResourceInfo = {
  ...base,
  kind: 'ReplicaSet',
  resource: 'replicasets',
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  definition: 'io.k8s.api.apps.v1.ReplicaSet',
  statusSubresource: true,
  scale: appsScale,
  defaulter: defaultReplicaSet,
};

export const statefulSetInfo: ResourceInfo = {
  ...base,
  kind: 'StatefulSet',
  resource: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  definition: 'io.k8s.api.apps.v1.StatefulSet',
  statusSubresource: true,
  scale: appsScale,
  defaulter: defaultStatefulSet,
};

export const daemonSetInfo: ResourceInfo = {
  ...base,
  kind: 'DaemonSet',
  resource: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['ds'],
  categories: ['all'],
  definition: 'io.k8s.api.apps.v1.DaemonSet',
  statusSubresource: true,
  defaulter: defaultDaemonSet,
};

export const controllerRevisionInfo: ResourceInfo = {
  ...base,
  kind: 'ControllerRevision',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  definition: 'io.k8s.api.apps.v1.ControllerRevision',
};

export const appsV1ResourceInfos: readonly ResourceInfo[] = [
  controllerRevisionInfo,
  daemonSetInfo,
  deploymentInfo,
  replicaSetInfo,
  statefulSetInfo,
];
