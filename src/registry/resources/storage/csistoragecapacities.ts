/**
 * csistoragecapacities.storage.k8s.io (upstream pkg/registry/storage/csistoragecapacity), v1 only:
 * namespaced, no status or generation; an update must name a resourceVersion. Invalid label values
 * in a stored nodeTopology stay allowed on update.
 */
import { csiStorageCapacityInfo } from '../../../apis/storage/v1/resources.js';
import {
  csiStorageCapacityWarnings,
  hasInvalidLabelValueInSelector,
  validateCSIStorageCapacity,
  validateCSIStorageCapacityUpdate,
} from '../../../apis/storage/v1/validation/csistoragecapacity.js';
import type { RegistryResource } from '../../resource.js';
import { csiStorageCapacityTable } from '../../printers/csistoragecapacity.js';
import { defineStrategy } from '../../strategies/base.js';

export const csiStorageCapacities: RegistryResource = {
  info: csiStorageCapacityInfo,
  strategy: defineStrategy({
    namespaced: true,
    allowUnconditionalUpdate: false,
    validate: (_ctx, obj) => validateCSIStorageCapacity(obj, { allowInvalidLabelValueInSelector: false }),
    validateUpdate: (_ctx, obj, old) => [
      ...validateCSIStorageCapacity(obj, {
        allowInvalidLabelValueInSelector: hasInvalidLabelValueInSelector(old),
      }),
      ...validateCSIStorageCapacityUpdate(obj, old),
    ],
    warningsOnCreate: (_ctx, obj) => csiStorageCapacityWarnings(obj),
    warningsOnUpdate: (_ctx, obj) => csiStorageCapacityWarnings(obj),
  }),
  table: csiStorageCapacityTable,
};
