/** resourceclaimtemplates.resource.k8s.io: namespaced, immutable spec, no status (pkg/registry/resource/resourceclaimtemplate). */
import { resourceClaimTemplateInfo } from '../../../apis/resource/v1alpha2/resources.js';
import {
  validateResourceClaimTemplate,
  validateResourceClaimTemplateUpdate,
} from '../../../apis/resource/v1alpha2/validation.js';
import type { RegistryResource } from '../../resource.js';
import { resourceClaimTemplateTable } from '../../printers/resourceclaimtemplate.js';
import { defineStrategy } from '../../strategies/base.js';

export const resourceClaimTemplates: RegistryResource = {
  returnDeletedObject: true,
  info: resourceClaimTemplateInfo,
  featureGate: 'DynamicResourceAllocation',
  strategy: defineStrategy({
    namespaced: true,
    validate: (_ctx, obj) => validateResourceClaimTemplate(obj),
    validateUpdate: (_ctx, obj, old) => validateResourceClaimTemplateUpdate(obj, old),
  }),
  table: resourceClaimTemplateTable,
};
