/**
 * persistentvolumes (upstream pkg/registry/core/persistentvolume): status only through /status;
 * a new volume's status is reset (and reads back as phase Pending, the decode default).
 */
import { persistentVolumesInfo } from '../../../apis/core/v1/resources-more.js';
import {
  pvValidationOptions,
  validatePersistentVolume,
  validatePersistentVolumeUpdate,
} from '../../../apis/core/v1/validation/persistentvolume.js';
import { persistentVolumeTable } from '../../printers/persistentvolume.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { persistentVolumeWarnings } from './storage-warnings.js';

const strategy = defineStrategy({
  namespaced: false,
  prepareForCreate(_ctx, pv) {
    pv['status'] = { phase: 'Pending' };
  },
  prepareForUpdate(_ctx, pv, old) {
    if (old['status'] === undefined) delete pv['status'];
    else pv['status'] = old['status'];
  },
  validate: (ctx, pv) => validatePersistentVolume(pv, pvValidationOptions(ctx.features)),
  validateUpdate: (ctx, pv, old) => {
    const opts = pvValidationOptions(ctx.features, old);
    return [...validatePersistentVolume(pv, opts), ...validatePersistentVolumeUpdate(pv, old, opts)];
  },
  warningsOnCreate: (_ctx, pv) => persistentVolumeWarnings(pv),
  warningsOnUpdate: (_ctx, pv) => persistentVolumeWarnings(pv),
});

export const persistentVolumesResource: RegistryResource = {
  returnDeletedObject: true,
  info: persistentVolumesInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy),
  table: persistentVolumeTable,
};
