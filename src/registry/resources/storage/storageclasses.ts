/**
 * storageclasses.storage.k8s.io (upstream pkg/registry/storage/storageclass): cluster scoped, no
 * status and no generation; updates without a resourceVersion overwrite. Update validation repeats
 * the create rules, then keeps parameters, provisioner, reclaim policy and binding mode.
 */
import { storageClassInfo } from '../../../apis/storage/v1/resources.js';
import {
  storageClassWarnings,
  validateStorageClass,
  validateStorageClassUpdate,
} from '../../../apis/storage/v1/validation/storageclass.js';
import type { RegistryResource } from '../../resource.js';
import { storageClassTable } from '../../printers/storageclass.js';
import { defineStrategy } from '../../strategies/base.js';

export const storageClasses: RegistryResource = {
  returnDeletedObject: true,
  info: storageClassInfo,
  strategy: defineStrategy({
    namespaced: false,
    validate: (_ctx, sc) => validateStorageClass(sc),
    validateUpdate: (_ctx, sc, old) => [...validateStorageClass(sc), ...validateStorageClassUpdate(sc, old)],
    warningsOnCreate: (_ctx, sc) => storageClassWarnings(sc),
    warningsOnUpdate: (_ctx, sc) => storageClassWarnings(sc),
  }),
  table: storageClassTable,
};
