/** limitranges (upstream pkg/registry/core/limitrange): a missing name becomes a UUID. */
import { randomUUID } from 'node:crypto';
import { limitRangesInfo } from '../../../apis/core/v1/resources-more.js';
import { validateLimitRange } from '../../../apis/core/v1/validation/limitrange.js';
import { limitRangeTable } from '../../printers/limitrange.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export const limitRangesResource: RegistryResource = {
  info: limitRangesInfo,
  strategy: defineStrategy({
    namespaced: true,
    allowCreateOnUpdate: true,
    prepareForCreate(_ctx, lr) {
      if ((lr.metadata.name ?? '') === '') lr.metadata.name = randomUUID();
    },
    validate: (_ctx, lr) => validateLimitRange(lr),
    validateUpdate: (_ctx, lr) => validateLimitRange(lr),
  }),
  table: limitRangeTable,
};
