/** ingresses.networking.k8s.io: the Ingress strategy (upstream pkg/registry/networking/ingress/strategy.go). */
import { ingressInfo } from '../../../apis/networking/v1/resources.js';
import {
  ingressWarningsOnCreate,
  validateIngressCreate,
  validateIngressStatusUpdate,
  validateIngressUpdate,
} from '../../../apis/networking/v1/validation/ingress.js';
import type { RESTStrategy } from '../../strategy.js';
import type { RegistryResource } from '../../resource.js';
import { ingressTable } from '../../printers/ingress.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

/** Status is reset on create and kept on update; a spec change bumps the generation. */
const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  validate: (_ctx, obj) => validateIngressCreate(obj),
  validateUpdate: (_ctx, obj, old) => validateIngressUpdate(obj, old),
  warningsOnCreate: (_ctx, obj) => ingressWarningsOnCreate(obj),
});

/**
 * ingresses/status: upstream only puts the stored spec back, so metadata changes (labels,
 * annotations) made through /status are kept.
 */
const statusStrategy: RESTStrategy = {
  ...defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj) => validateIngressStatusUpdate(obj),
  }),
  prepareForUpdate(_ctx, obj, old) {
    const spec = old['spec'];
    if (spec === undefined) delete obj['spec'];
    else obj['spec'] = spec;
  },
};

export const ingresses: RegistryResource = {
  info: ingressInfo,
  strategy,
  statusStrategy,
  table: ingressTable,
};
