/** controllerrevisions.apps: no status, no generation; data is immutable. */
import { controllerRevisionInfo } from '../../../apis/apps/v1/resources.js';
import {
  validateControllerRevision,
  validateControllerRevisionUpdate,
} from '../../../apis/apps/v1/validation/controllerrevision.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export const controllerRevisions: RegistryResource = {
  info: controllerRevisionInfo,
  strategy: defineStrategy({
    namespaced: true,
    validate: (_ctx, obj) => validateControllerRevision(obj),
    validateUpdate: (_ctx, obj, old) => validateControllerRevisionUpdate(obj, old),
  }),
};
