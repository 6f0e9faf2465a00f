/** replicasets.apps: the ReplicaSet strategy (upstream pkg/registry/apps/replicaset/strategy.go). */
import { specTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import { replicaSetInfo } from '../../../apis/apps/v1/resources.js';
import { validateReplicaSet, validateReplicaSetUpdate } from '../../../apis/apps/v1/validation/replicaset.js';
import { validateAppsStatusUpdate } from '../../../apis/apps/v1/validation/status.js';
import { num } from '../../../apis/core/v1/access.js';
import { isJsonObject } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import { replicaSetTable } from '../../printers/replicaset.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { podNameWarnings } from '../../strategies/workload-warnings.js';

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  validate: validateReplicaSet,
  validateUpdate: validateReplicaSetUpdate,
  warningsOnCreate: (_ctx, o) => [...podNameWarnings(o), ...specTemplateWarnings(o)],
  warningsOnUpdate: (_ctx, o, old) =>
    o.metadata.generation !== old.metadata.generation ? specTemplateWarnings(o) : [],
});

export const replicaSets: RegistryResource = {
  info: replicaSetInfo,
  strategy,
  table: replicaSetTable,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj, old) => validateAppsStatusUpdate('ReplicaSet', obj, old),
  }),
  selectableFields: (obj) => {
    const status = obj['status'];
    return { 'status.replicas': String(num(isJsonObject(status) ? status : undefined, 'replicas') ?? 0) };
  },
};
