/**
 * Structural schemas of CustomResourceDefinitions (apiextensions-apiserver v0.27
 * pkg/apiserver/schema and pkg/apiserver/validation): the structural form, its CRD-time checks,
 * value validation, pruning, defaulting, list types and embedded ObjectMeta of custom resources.
 */
export { StructuralConversionError, asResourceRoot, emptyStructural, newStructural } from './structural.js';
export type {
  Extensions,
  Generic,
  NestedValueValidation,
  Structural,
  StructuralOrBool,
  ValidationRule,
  ValueValidation,
} from './structural.js';
export {
  goRegexpError,
  isIntOrStringAllOfPattern,
  isIntOrStringAnyOfPattern,
  isZeroValueValidation,
  validateStructural,
} from './validate-structural.js';
export { unfold } from './unfold.js';
export {
  createSchemaOptions,
  schemaHas,
  schemaHasKubernetesExtensions,
  schemaHasUnprunedDefaults,
  schemaIsNonStructural,
  updateSchemaOptions,
  validateCRDOpenAPISchema,
  validateMapListKeysMapSet,
} from './crd-schema.js';
export type { CRDSchemaOptions, ValidateRules } from './crd-schema.js';
export { DefaultValidationError, validateDefaults } from './default-validation.js';
export type { ValidateDefaultRules, ValidateDefaultsOptions } from './default-validation.js';
export {
  newSchemaValidator,
  newStructuralValidator,
  toFieldError,
  validateCustomResource,
} from './custom-resource.js';
export { SchemaValidator } from './openapi-validator.js';
export type {
  CompositeError,
  OpenAPIError,
  ValidationCode,
  ValidationError,
  ValidatorOptions,
} from './openapi-validator.js';
export { openAPISchemaFromJSON, openAPISchemaFromStructural } from './openapi-schema.js';
export type { OpenAPISchema } from './openapi-schema.js';
export { isKnownFormat, normalizeFormatName, validatesFormat } from './formats.js';
export { validateListSetsAndMaps } from './listtype.js';
export { prune } from './pruning.js';
export type { PruneOptions } from './pruning.js';
export {
  PruneDefaultsError,
  applyDefaults,
  childObject,
  indexObject,
  pruneDefaults,
  pruneNonNullableNullsWithoutDefaults,
  rootObject,
  withTypeMeta,
} from './defaulting.js';
export type { Accessor, SurroundingObject } from './defaulting.js';
export { coerce, getObjectMeta, validateEmbedded } from './objectmeta.js';
export type { CoerceOptions, CoerceResult, ObjectMetaOptions, ObjectMetaResult } from './objectmeta.js';
export { goBadValue, goSharp } from './go-value.js';
