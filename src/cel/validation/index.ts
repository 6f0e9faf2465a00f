/**
 * x-kubernetes-validations of custom resources (AM-03 cost, AM-05 messageExpression,
 * AM-09 errors never 500): CRD-time compilation and cost checks, and the per-version validator
 * the custom resource strategy runs on create, update and status update.
 */
export { compileSchemaRules, costErrorMessage, type CompileSchemaRulesOptions } from './crd-rules.js';
export {
  CustomResourceRuleValidator,
  mapIsCorrelatable,
  type RuleValidatorOptions,
  type ValidateOptions,
  type ValidateResult,
} from './rule-validator.js';
export { hasValidationRules } from './has-rules.js';
export { validateDefaultRules } from './default-rules.js';
export { blockingError } from './blocking.js';
export { compileRules, type CompiledRule } from './compile-rules.js';
export { type ValidationRule } from './rules.js';
export { type SchemaInput } from './schema-input.js';
export {
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
} from './limits.js';
