/**
 * resourceclaims.resource.k8s.io (+status): the spec is immutable, the status is written through
 * /status only (pkg/registry/resource/resourceclaim); no generation.
 */
import { resourceClaimInfo } from '../../../apis/resource/v1alpha2/resources.js';
import {
  validateResourceClaim,
  validateResourceClaimStatusUpdate,
  validateResourceClaimUpdate,
} from '../../../apis/resource/v1alpha2/validation.js';
import type { RegistryResource } from '../../resource.js';
import { resourceClaimTable } from '../../printers/resourceclaim.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  validate: (_ctx, obj) => validateResourceClaim(obj),
  validateUpdate: (_ctx, obj, old) => validateResourceClaimUpdate(obj, old),
});

export const resourceClaims: RegistryResource = {
  returnDeletedObject: true,
  info: resourceClaimInfo,
  featureGate: 'DynamicResourceAllocation',
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj, old) => validateResourceClaimStatusUpdate(obj, old),
  }),
  table: resourceClaimTable,
};
