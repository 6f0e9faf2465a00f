/** resourceclasses.resource.k8s.io: cluster-scoped, no status, no generation (pkg/registry/resource/resourceclass). */
import { resourceClassInfo } from '../../../apis/resource/v1alpha2/resources.js';
import {
  validateResourceClass,
  validateResourceClassUpdate,
} from '../../../apis/resource/v1alpha2/validation.js';
import type { RegistryResource } from '../../resource.js';
import { resourceClassTable } from '../../printers/resourceclass.js';
import { defineStrategy } from '../../strategies/base.js';

export const resourceClasses: RegistryResource = {
  returnDeletedObject: true,
  info: resourceClassInfo,
  featureGate: 'DynamicResourceAllocation',
  strategy: defineStrategy({
    namespaced: false,
    validate: (_ctx, obj) => validateResourceClass(obj),
    validateUpdate: (_ctx, obj) => validateResourceClassUpdate(obj),
  }),
  table: resourceClassTable,
};
