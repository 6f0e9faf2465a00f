/**
 * clusterroles.rbac.authorization.k8s.io: as roles, cluster-wide, with an aggregation rule whose
 * selectors must be valid, except that an update may keep invalid label values already stored.
 */
import { clusterRoleInfo } from '../../../apis/rbac/v1/resources.js';
import {
  hasInvalidLabelValueInLabelSelector,
  validateClusterRole,
} from '../../../apis/rbac/v1/validation/rules.js';
import type { RegistryResource } from '../../resource.js';
import { clusterRoleTable } from '../../printers/rbac.js';
import { defineStrategy } from '../../strategies/base.js';
import { nilEmptyRules } from './rules.js';

export const clusterRoles: RegistryResource = {
  info: clusterRoleInfo,
  strategy: defineStrategy({
    namespaced: false,
    nameValidation: 'pathSegment',
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    canonicalize: nilEmptyRules,
    validate: (_ctx, role) => validateClusterRole(role, { allowInvalidLabelValueInSelector: false }),
    validateUpdate: (_ctx, role, old) =>
      validateClusterRole(role, {
        allowInvalidLabelValueInSelector: hasInvalidLabelValueInLabelSelector(old),
      }),
  }),
  table: clusterRoleTable,
};
