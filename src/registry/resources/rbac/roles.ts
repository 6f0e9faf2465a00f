/**
 * roles.rbac.authorization.k8s.io: no status, no generation; created by PUT too, and updated
 * without a resourceVersion (upstream's role strategy). Escalation checks are not here.
 */
import { roleInfo } from '../../../apis/rbac/v1/resources.js';
import { validateRole } from '../../../apis/rbac/v1/validation/rules.js';
import type { RegistryResource } from '../../resource.js';
import { roleTable } from '../../printers/rbac.js';
import { defineStrategy } from '../../strategies/base.js';
import { nilEmptyRules } from './rules.js';

export const roles: RegistryResource = {
  info: roleInfo,
  strategy: defineStrategy({
    namespaced: true,
    nameValidation: 'pathSegment',
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    canonicalize: nilEmptyRules,
    validate: (_ctx, role) => validateRole(role),
    validateUpdate: (_ctx, role) => validateRole(role),
  }),
  table: roleTable,
};
