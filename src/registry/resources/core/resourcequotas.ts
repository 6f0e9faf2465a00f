/** resourcequotas (upstream pkg/registry/core/resourcequota): status only through /status. */
import { resourceQuotasInfo } from '../../../apis/core/v1/resources-more.js';
import {
  validateResourceQuota,
  validateResourceQuotaStatusUpdate,
  validateResourceQuotaUpdate,
} from '../../../apis/core/v1/validation/resourcequota.js';
import { resourceQuotaTable } from '../../printers/resourcequota.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  validate: (_ctx, rq) => validateResourceQuota(rq),
  validateUpdate: (_ctx, rq, old) => validateResourceQuotaUpdate(rq, old),
});

export const resourceQuotasResource: RegistryResource = {
  returnDeletedObject: true,
  info: resourceQuotasInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, rq) => validateResourceQuotaStatusUpdate(rq),
  }),
  table: resourceQuotaTable,
};
