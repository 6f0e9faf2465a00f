/**
 * Value validation of a custom resource against its CRD schema, as apiextensions-apiserver v0.27
 * pkg/apiserver/validation/validation.go: NewSchemaValidator over the v1 JSON schema and
 * ValidateCustomResource, which turns kube-openapi's errors into field errors (Required,
 * NotSupported for enums, TooLong, TooMany, TypeInvalid, Invalid otherwise; composite errors as
 * an Invalid "" on the base path, printed `<nil>` when there is none).
 */
import { FieldError, FieldPath, fieldErrors, omitValue } from '../../../machinery/field/errors.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { openAPISchemaFromJSON, openAPISchemaFromStructural } from './openapi-schema.js';
import { SchemaValidator } from './openapi-validator.js';
import type { OpenAPIError, ValidatorOptions } from './openapi-validator.js';
import type { Structural } from './structural.js';
import { goBadValue } from './go-value.js';

/** Upstream NewSchemaValidator: a validator for a CRD version's `openAPIV3Schema` (v1 JSON). */
export function newSchemaValidator(openAPIV3Schema: JsonObject | undefined): SchemaValidator {
  return new SchemaValidator(openAPISchemaFromJSON(openAPIV3Schema ?? {}));
}

/** A validator over a Structural (upstream ToKubeOpenAPI), as default validation uses. */
export function newStructuralValidator(s: Structural, options: ValidatorOptions = {}): SchemaValidator {
  return new SchemaValidator(openAPISchemaFromStructural(s), options);
}

function childOf(base: FieldPath | undefined, name: string): FieldPath {
  return base === undefined ? FieldPath.root(name) : base.child(name);
}

/** `Too long: may not be longer than N` (field.TooLongMaxLength). */
function tooLongMaxLength(path: FieldPath | string, value: unknown, max: number): FieldError {
  const detail = max >= 0 ? `may not be longer than ${max}` : 'value is too long';
  return new FieldError('FieldValueTooLong', path, value, detail);
}

/** `Too many: N: must have at most M items` (field.TooMany). */
function tooMany(path: FieldPath | string, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} items` : 'has too many items';
  return new FieldError('FieldValueTooMany', path, actual >= 0 ? actual : omitValue, detail);
}

function enumValueText(v: JsonValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Converts one kube-openapi error as upstream's ValidateCustomResource does. */
export function toFieldError(base: FieldPath | undefined, err: OpenAPIError): FieldError {
  const basePath: FieldPath | string = base ?? '<nil>';
  if (err.kind === 'composite') return fieldErrors.invalid(basePath, '', err.message);
  const name = err.name.startsWith('.') ? err.name.slice(1) : err.name;
  const path: FieldPath | string = err.name !== '' && err.name !== '.' ? childOf(base, name) : basePath;
  const value = goBadValue(err.value ?? '');
  switch (err.code) {
    case 'Required':
      return fieldErrors.required(path, '');
    case 'Enum':
      return fieldErrors.notSupported(
        path,
        goBadValue(err.value ?? null),
        (err.values ?? []).map(enumValueText),
      );
    case 'TooLong':
      return tooLongMaxLength(path, value, err.valid ?? -1);
    case 'MaxItems':
    case 'TooManyProperties':
      return tooMany(path, typeof err.value === 'number' ? err.value : -1, err.valid ?? -1);
    case 'InvalidType':
      return fieldErrors.typeInvalid(path, value, err.message);
    default:
      return fieldErrors.invalid(path, value, err.message);
  }
}

/**
 * Upstream ValidateCustomResource: the custom resource (or any value) against the validator;
 * `base` is the field path of the value (undefined for a whole object, as the registry passes).
 */
export function validateCustomResource(
  base: FieldPath | undefined,
  value: JsonValue,
  validator: SchemaValidator | undefined,
): FieldError[] {
  if (validator === undefined) return [];
  return validator.validate(value).map((e) => toFieldError(base, e));
}
