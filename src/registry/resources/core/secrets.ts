/** secrets (upstream pkg/registry/core/secret): field selector on `type`. */
import { str } from '../../../apis/core/v1/access.js';
import { secretsInfo } from '../../../apis/core/v1/resources.js';
import { validateSecret, validateSecretUpdate } from '../../../apis/core/v1/validation/secret.js';
import { secretTable } from '../../printers/secret.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

export const secretsResource: RegistryResource = {
  info: secretsInfo,
  strategy: defineStrategy({
    namespaced: true,
    validate: (_ctx, secret) => validateSecret(secret),
    validateUpdate: (_ctx, secret, old) => validateSecretUpdate(secret, old),
  }),
  table: secretTable,
  fieldLabels: fieldLabelConversion(['type', 'metadata.namespace', 'metadata.name']),
  selectableFields: (secret) => ({ type: str(secret, 'type') ?? '' }),
};
