/**
 * The schema machinery custom resources are served with: structural-schema validation, pruning and
 * defaulting, CEL validation rules, and the OpenAPI definitions of each served version.
 */
import type { CrdView } from '../../registry/customresources/crd-view.js';
import { customResourceSchemaOps } from '../../registry/customresources/schema-ops.js';
import type { CustomResourceSchemas } from './custom-resources.js';
import { hasValidationRules } from '../../cel/validation/has-rules.js';
import { celValidation, celValidationPending } from '../../cel/validation/load.js';
import type { CustomResourceRuleValidator } from '../../cel/validation/index.js';

export { customResourceDefinitions } from '../../registry/customresources/definitions.js';

export function customResourceSchemas(view: CrdView): CustomResourceSchemas {
  return customResourceSchemaOps(view, {
    // One validator per version with rules: compiled on first use (the CEL engine is loaded
    // then), run on create, update and /status.
    rules: (schema) => {
      if (!hasValidationRules(schema)) return undefined;
      let v: CustomResourceRuleValidator | undefined;
      return {
        load: celValidationPending,
        validate: (obj, old) =>
          (v ??= new (celValidation().CustomResourceRuleValidator)(schema)).validate(obj, old),
      };
    },
  });
}
