/** configmaps (upstream pkg/registry/core/configmap). */
import { configMapsInfo } from '../../../apis/core/v1/resources.js';
import { validateConfigMap, validateConfigMapUpdate } from '../../../apis/core/v1/validation/configmap.js';
import { configMapTable } from '../../printers/configmap.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export const configMapsResource: RegistryResource = {
  info: configMapsInfo,
  strategy: defineStrategy({
    namespaced: true,
    validate: (_ctx, cm) => validateConfigMap(cm),
    validateUpdate: (_ctx, cm, old) => validateConfigMapUpdate(cm, old),
  }),
  table: configMapTable,
};
