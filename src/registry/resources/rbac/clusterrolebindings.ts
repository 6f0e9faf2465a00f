/**
 * clusterrolebindings.rbac.authorization.k8s.io: as role bindings, cluster-wide: the role is a
 * ClusterRole and ServiceAccount subjects name their namespace.
 */
import { clusterRoleBindingInfo } from '../../../apis/rbac/v1/resources.js';
import {
  validateClusterRoleBinding,
  validateRoleRefUnchanged,
} from '../../../apis/rbac/v1/validation/bindings.js';
import type { RegistryResource } from '../../resource.js';
import { clusterRoleBindingTable } from '../../printers/rbac.js';
import { defineStrategy } from '../../strategies/base.js';

export const clusterRoleBindings: RegistryResource = {
  info: clusterRoleBindingInfo,
  strategy: defineStrategy({
    namespaced: false,
    nameValidation: 'pathSegment',
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    validate: (_ctx, binding) => validateClusterRoleBinding(binding),
    validateUpdate: (_ctx, binding, old) => [
      ...validateClusterRoleBinding(binding),
      ...validateRoleRefUnchanged(binding, old),
    ],
  }),
  table: clusterRoleBindingTable,
};
