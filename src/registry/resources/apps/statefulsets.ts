/** statefulsets.apps: the StatefulSet strategy (upstream pkg/registry/apps/statefulset/strategy.go). */
import { specTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import { statefulSetInfo } from '../../../apis/apps/v1/resources.js';
import {
  validateStatefulSet,
  validateStatefulSetUpdate,
} from '../../../apis/apps/v1/validation/statefulset.js';
import { validateAppsStatusUpdate } from '../../../apis/apps/v1/validation/status.js';
import type { RegistryResource } from '../../resource.js';
import { statefulSetTable } from '../../printers/statefulset.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

/** StatefulSet names must be DNS labels (they become pod hostnames), so there is no name warning. */
const strategy = defineStrategy({
  namespaced: true,
  nameValidation: 'dns1123Label',
  hasStatus: true,
  tracksGeneration: true,
  validate: (_ctx, obj) => validateStatefulSet(obj),
  validateUpdate: (_ctx, obj, old) => validateStatefulSetUpdate(obj, old),
  warningsOnCreate: (_ctx, obj) => specTemplateWarnings(obj),
  warningsOnUpdate: (_ctx, obj, old) =>
    obj.metadata.generation !== old.metadata.generation ? specTemplateWarnings(obj) : [],
});

export const statefulSets: RegistryResource = {
  info: statefulSetInfo,
  strategy,
  table: statefulSetTable,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj, old) => validateAppsStatusUpdate('StatefulSet', obj, old),
  }),
};
