/**
 * The schema machinery custom resources are served with: structural-schema validation, pruning and
 * defaulting, CEL validation rules, and the OpenAPI definitions of each served version.
 */
import type { CrdView } from '../../registry/customresources/crd-view.js';
import { customResourceSchemaOps } from '../../registry/customresources/schema-ops.js';
import type { CustomResourceSchemas } from './custom-resources.js';
import { CustomResourceRuleValidator } from '../../cel/validation/index.js';

export { customResourceDefinitions } from '../../registry/customresources/definitions.js';

export function customResourceSchemas(view: CrdView): CustomResourceSchemas {
  return customResourceSchemaOps(view, {
    // One validator per version with rules: compiled once, run on create, update and /status.
    rules: (schema) => {
      const v = new CustomResourceRuleValidator(schema);
      return v.hasRules ? { validate: (obj, old) => v.validate(obj, old) } : undefined;
    },
  });
}
