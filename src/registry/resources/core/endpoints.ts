/** endpoints (upstream pkg/registry/core/endpoint): created on update, like upstream. */
import { endpointsInfo } from '../../../apis/core/v1/resources.js';
import { validateEndpoints } from '../../../apis/core/v1/validation/endpoints.js';
import { endpointsTable } from '../../printers/endpoints.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export const endpointsResource: RegistryResource = {
  info: endpointsInfo,
  strategy: defineStrategy({
    namespaced: true,
    allowCreateOnUpdate: true,
    validate: (_ctx, ep) => validateEndpoints(ep),
    validateUpdate: (_ctx, ep) => validateEndpoints(ep),
  }),
  table: endpointsTable,
};
