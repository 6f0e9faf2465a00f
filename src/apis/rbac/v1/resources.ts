/**
 * rbac.authorization.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them: no
 * short names, no categories, no subresources; roles and bindings in namespaces, their cluster
 * counterparts cluster-wide. Only the bindings have defaults (upstream SetDefaults_*).
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultClusterRoleBinding, defaultRoleBinding } from './defaults.js';
import { rbacGroup } from './group.js';

const base = { group: rbacGroup, version: 'v1', verbs: allVerbs } as const;

export const roleInfo: ResourceInfo = {
  ...base,
  kind: 'Role',
  resource: 'roles',
  singular: 'role',
  namespaced: true,
  definition: 'io.k8s.api.rbac.v1.Role',
};

export const clusterRoleInfo: ResourceInfo = {
  ...base,
  kind: 'ClusterRole',
  resource: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  definition: 'io.k8s.api.rbac.v1.ClusterRole',
};

export const roleBindingInfo: ResourceInfo = {
  ...base,
  kind: 'RoleBinding',
  resource: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  definition: 'io.k8s.api.rbac.v1.RoleBinding',
  defaulter: defaultRoleBinding,
};

export const clusterRoleBindingInfo: ResourceInfo = {
  ...base,
  kind: 'ClusterRoleBinding',
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  definition: 'io.k8s.api.rbac.v1.ClusterRoleBinding',
  defaulter: defaultClusterRoleBinding,
};

export const rbacV1ResourceInfos: readonly ResourceInfo[] = [
  clusterRoleBindingInfo,
  clusterRoleInfo,
  roleBindingInfo,
  roleInfo,
];
