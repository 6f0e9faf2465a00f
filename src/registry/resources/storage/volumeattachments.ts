/**
 * volumeattachments.storage.k8s.io (upstream pkg/registry/storage/volumeattachment): cluster scoped;
 * status is reset on create and kept on update, the spec is read-only (so no generation is kept);
 * an update must name a resourceVersion. /status writes only the status (metadata and spec are
 * kept, upstream ResetObjectMetaForStatus) and validates as an update.
 */
import { volumeAttachmentInfo } from '../../../apis/storage/v1/resources.js';
import {
  validateVolumeAttachment,
  validateVolumeAttachmentUpdate,
} from '../../../apis/storage/v1/validation/volumeattachment.js';
import type { RegistryResource } from '../../resource.js';
import { volumeAttachmentTable } from '../../printers/volumeattachment.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

const strategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  allowUnconditionalUpdate: false,
  validate: (_ctx, obj) => validateVolumeAttachment(obj),
  validateUpdate: (_ctx, obj, old) => validateVolumeAttachmentUpdate(obj, old),
});

export const volumeAttachments: RegistryResource = {
  returnDeletedObject: true,
  info: volumeAttachmentInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj, old) => validateVolumeAttachmentUpdate(obj, old),
    metadata: 'reset',
  }),
  table: volumeAttachmentTable,
};
