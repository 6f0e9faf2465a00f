/** serviceaccounts (upstream pkg/registry/core/serviceaccount): metadata rules only. */
import { serviceAccountsInfo } from '../../../apis/core/v1/resources.js';
import { serviceAccountTable } from '../../printers/serviceaccount.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export const serviceAccountsResource: RegistryResource = {
  returnDeletedObject: true,
  info: serviceAccountsInfo,
  strategy: defineStrategy({ namespaced: true }),
  table: serviceAccountTable,
};
