/**
 * The rules of a schema node checked against its default at CRD time, as apiextensions-apiserver
 * v0.27 pkg/apiserver/schema/defaulting/validation.go: cel.NewValidator on the node (a resource
 * root when x-kubernetes-embedded-resource) validates the default as both the object and the old
 * object, so transition rules run too. Each call has a fresh RuntimeCELCostBudget (upstream
 * shares one budget across all defaults of a schema).
 */
import type { FieldErrorList, FieldPath } from '../../machinery/field/errors.js';
import { CustomResourceRuleValidator } from './rule-validator.js';
import { isStructural, type SchemaInput } from './schema-input.js';

/** Matches apis' ValidateDefaultRules seam: `path` is the node's `….default`. */
export function validateDefaultRules(schema: SchemaInput, value: unknown, path: FieldPath): FieldErrorList {
  const embedded = isStructural(schema)
    ? schema.extensions.embeddedResource
    : schema['x-kubernetes-embedded-resource'] === true;
  const validator = new CustomResourceRuleValidator(schema, { isResourceRoot: embedded });
  if (!validator.hasRules) return [];
  return validator.validate(value, value, { path });
}
