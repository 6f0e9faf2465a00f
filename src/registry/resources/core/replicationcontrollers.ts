/**
 * replicationcontrollers (upstream pkg/registry/core/replicationcontroller): status through
 * /status, replicas through /scale (autoscaling/v1 Scale), generation follows spec changes.
 */
import { specTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import { validateAppsStatusUpdate } from '../../../apis/apps/v1/validation/status.js';
import { num, obj } from '../../../apis/core/v1/access.js';
import { replicationControllersInfo } from '../../../apis/core/v1/resources-more.js';
import {
  validateReplicationController,
  validateReplicationControllerUpdate,
} from '../../../apis/core/v1/validation/replicationcontroller.js';
import { replicationControllerTable } from '../../printers/replicationcontroller.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { podNameWarnings } from '../../strategies/workload-warnings.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  validate: validateReplicationController,
  validateUpdate: (ctx, rc) => validateReplicationControllerUpdate(ctx, rc),
  warningsOnCreate: (_ctx, rc) => [...podNameWarnings(rc), ...specTemplateWarnings(rc)],
  warningsOnUpdate: (_ctx, rc, old) =>
    rc.metadata.generation !== old.metadata.generation ? specTemplateWarnings(rc) : [],
});

export const replicationControllersResource: RegistryResource = {
  info: replicationControllersInfo,
  strategy,
  // ReplicationControllerStatus validates as ReplicaSetStatus does (same counters and bounds).
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, rc, old) => validateAppsStatusUpdate('ReplicaSet', rc, old),
  }),
  table: replicationControllerTable,
  fieldLabels: fieldLabelConversion(['metadata.name', 'metadata.namespace', 'status.replicas']),
  selectableFields: (rc) => ({ 'status.replicas': String(num(obj(rc, 'status'), 'replicas') ?? 0) }),
};
