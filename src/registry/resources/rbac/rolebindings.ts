/**
 * rolebindings.rbac.authorization.k8s.io: no status, no generation; created by PUT too, updated
 * without a resourceVersion; roleRef is immutable. Escalation checks are not here.
 */
import { roleBindingInfo } from '../../../apis/rbac/v1/resources.js';
import { validateRoleBinding, validateRoleRefUnchanged } from '../../../apis/rbac/v1/validation/bindings.js';
import type { RegistryResource } from '../../resource.js';
import { roleBindingTable } from '../../printers/rbac.js';
import { defineStrategy } from '../../strategies/base.js';

export const roleBindings: RegistryResource = {
  info: roleBindingInfo,
  strategy: defineStrategy({
    namespaced: true,
    nameValidation: 'pathSegment',
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    validate: (_ctx, binding) => validateRoleBinding(binding),
    validateUpdate: (_ctx, binding, old) => [
      ...validateRoleBinding(binding),
      ...validateRoleRefUnchanged(binding, old),
    ],
  }),
  table: roleBindingTable,
};
