/**
 * podschedulingcontexts.resource.k8s.io (+status): the scheduler's spec and the drivers' status
 * (pkg/registry/resource/podschedulingcontext); no generation.
 */
import { podSchedulingContextInfo } from '../../../apis/resource/v1alpha2/resources.js';
import {
  validatePodSchedulingContext,
  validatePodSchedulingContextStatusUpdate,
  validatePodSchedulingContextUpdate,
} from '../../../apis/resource/v1alpha2/validation.js';
import type { RegistryResource } from '../../resource.js';
import { podSchedulingContextTable } from '../../printers/podschedulingcontext.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  validate: (_ctx, obj) => validatePodSchedulingContext(obj),
  validateUpdate: (_ctx, obj) => validatePodSchedulingContextUpdate(obj),
});

export const podSchedulingContexts: RegistryResource = {
  returnDeletedObject: true,
  info: podSchedulingContextInfo,
  featureGate: 'DynamicResourceAllocation',
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj) => validatePodSchedulingContextStatusUpdate(obj),
  }),
  table: podSchedulingContextTable,
};
