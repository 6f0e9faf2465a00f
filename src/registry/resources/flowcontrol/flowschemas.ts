/**
 * flowschemas.flowcontrol.apiserver.k8s.io (upstream pkg/registry/flowcontrol/flowschema,
 * release-1.27): cluster scoped, stored as v1beta3 and served at v1beta2 and v1beta3 (identical
 * shapes). Create resets the status and sets generation 1; an update keeps the stored status and
 * bumps the generation when the spec changes; /status writes only the status.
 */
import { flowSchemaAs } from '../../../apis/flowcontrol/conversion.js';
import { flowSchemaV1beta2Info, flowSchemaV1beta3Info } from '../../../apis/flowcontrol/resources.js';
import { validateFlowSchema, validateFlowSchemaStatusUpdate } from '../../../apis/flowcontrol/validation.js';
import type { RegistryResource } from '../../resource.js';
import { flowSchemaTable } from '../../printers/flowschema.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { storageVersionOf } from '../../versioned-store.js';

const strategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  tracksGeneration: true,
  validate: (_ctx, fs) => validateFlowSchema(fs),
  validateUpdate: (_ctx, fs) => validateFlowSchema(fs),
});

export const flowSchemas: RegistryResource = {
  info: flowSchemaV1beta3Info,
  servedVersions: [
    { info: flowSchemaV1beta2Info, toStorage: flowSchemaAs('v1beta3'), fromStorage: flowSchemaAs('v1beta2') },
    storageVersionOf(flowSchemaV1beta3Info),
  ],
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, fs) => validateFlowSchemaStatusUpdate(fs),
    // Upstream keeps the whole stored ObjectMeta but managedFields.
    metadata: 'stored',
  }),
  table: flowSchemaTable,
};
