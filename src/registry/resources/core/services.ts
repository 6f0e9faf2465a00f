/** services: strategy and status strategy (upstream pkg/registry/core/service). */
import { ensureObj } from '../../../apis/core/v1/access.js';
import { servicesInfo } from '../../../apis/core/v1/resources.js';
import {
  serviceWarnings,
  validateService,
  validateServiceUpdate,
} from '../../../apis/core/v1/validation/service.js';
import { serviceTable } from '../../printers/service.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { normalizeClusterIPsOnCreate, prepareServiceUpdate } from './service-prepare.js';

const strategy = defineStrategy({
  namespaced: true,
  nameValidation: 'dns1035Label',
  hasStatus: true,
  allowCreateOnUpdate: true,
  prepareForCreate(_ctx, svc) {
    svc['status'] = { loadBalancer: {} };
    normalizeClusterIPsOnCreate(ensureObj(svc, 'spec'));
  },
  prepareForUpdate: (_ctx, svc, old) => prepareServiceUpdate(svc, old),
  validate: (_ctx, svc) => validateService(svc),
  validateUpdate: (_ctx, svc, old) => validateServiceUpdate(svc, old),
  warningsOnCreate: (_ctx, svc) => serviceWarnings(svc),
  warningsOnUpdate: (_ctx, svc) => serviceWarnings(svc),
});

export const servicesResource: RegistryResource = {
  returnDeletedObject: true,
  info: servicesInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy),
  table: serviceTable,
};
