/**
 * Whether a schema declares x-kubernetes-validations anywhere (upstream hasXValidations). Kept
 * apart from the validator so that callers can ask without loading the CEL engine.
 */
import {
  schemaAdditionalProperties,
  schemaItems,
  schemaProperties,
  type JsonSchema,
} from '../schema/structural.js';
import { schemaRules } from './rules.js';
import { toJsonSchema, type SchemaInput } from './schema-input.js';

/** hasXValidations: the schema or a descendant declares rules. */
export function hasValidationRules(input: SchemaInput): boolean {
  const visit = (s: JsonSchema | undefined): boolean => {
    if (s === undefined) return false;
    if (schemaRules(s).length > 0) return true;
    if (visit(schemaItems(s)) || visit(schemaAdditionalProperties(s))) return true;
    for (const p of schemaProperties(s)?.values() ?? []) if (visit(p)) return true;
    return false;
  };
  return visit(toJsonSchema(input));
}
