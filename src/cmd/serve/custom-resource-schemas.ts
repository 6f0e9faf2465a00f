/**
 * The schema machinery custom resources are served with: structural-schema validation, pruning and
 * defaulting, CEL validation rules, and the OpenAPI definitions of each served version.
 */
import type { CrdView } from '../../registry/customresources/crd-view.js';
import { customResourceSchemaOps } from '../../registry/customresources/schema-ops.js';
import type { CustomResourceSchemas } from './custom-resources.js';

export { customResourceDefinitions } from '../../registry/customresources/definitions.js';

export function customResourceSchemas(view: CrdView): CustomResourceSchemas {
  return customResourceSchemaOps(view);
}
