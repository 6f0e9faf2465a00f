/**
 * runtimeclasses.node.k8s.io (upstream pkg/registry/node/runtimeclass): cluster scoped, no status
 * or generation; PUT may create, and an update must name a resourceVersion. Update validation
 * repeats the create rules, then keeps the handler.
 */
import { runtimeClassInfo } from '../../../apis/node/v1/resources.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from '../../../apis/node/v1/validation.js';
import type { RegistryResource } from '../../resource.js';
import { runtimeClassTable } from '../../printers/runtimeclass.js';
import { defineStrategy } from '../../strategies/base.js';

export const runtimeClasses: RegistryResource = {
  info: runtimeClassInfo,
  strategy: defineStrategy({
    namespaced: false,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
    validate: (_ctx, rc) => validateRuntimeClass(rc),
    validateUpdate: (_ctx, rc, old) => [...validateRuntimeClass(rc), ...validateRuntimeClassUpdate(rc, old)],
  }),
  table: runtimeClassTable,
};
