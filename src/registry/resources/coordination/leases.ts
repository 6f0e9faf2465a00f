/** leases.coordination.k8s.io: no status, no generation; created by PUT, updates need a resourceVersion. */
import { leaseInfo } from '../../../apis/coordination/v1/resources.js';
import { validateLeaseSpec } from '../../../apis/coordination/v1/validation.js';
import type { RegistryResource } from '../../resource.js';
import { leaseTable } from '../../printers/lease.js';
import { defineStrategy } from '../../strategies/base.js';

export const leases: RegistryResource = {
  info: leaseInfo,
  strategy: defineStrategy({
    namespaced: true,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
    validate: (_ctx, lease) => validateLeaseSpec(lease),
    validateUpdate: (_ctx, lease) => validateLeaseSpec(lease),
  }),
  table: leaseTable,
};
