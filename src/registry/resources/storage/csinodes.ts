/**
 * csinodes.storage.k8s.io (upstream pkg/registry/storage/csinode): cluster scoped, no status or
 * generation; an update must name a resourceVersion.
 */
import { csiNodeInfo } from '../../../apis/storage/v1/resources.js';
import { validateCSINode, validateCSINodeUpdate } from '../../../apis/storage/v1/validation/csinode.js';
import type { RegistryResource } from '../../resource.js';
import { csiNodeTable } from '../../printers/csinode.js';
import { defineStrategy } from '../../strategies/base.js';

export const csiNodes: RegistryResource = {
  returnDeletedObject: true,
  info: csiNodeInfo,
  strategy: defineStrategy({
    namespaced: false,
    allowUnconditionalUpdate: false,
    validate: (_ctx, obj) => validateCSINode(obj),
    validateUpdate: (_ctx, obj, old) => validateCSINodeUpdate(obj, old),
  }),
  table: csiNodeTable,
};
