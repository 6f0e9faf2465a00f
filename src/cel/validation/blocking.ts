/**
 * The gate before a custom resource's rules run, as apiextensions-apiserver v0.27
 * pkg/registry/customresource/strategy.go hasBlockingErr: when OpenAPI validation already found a
 * missing required field, a too long value, too many items or a wrong type, the rules are not run
 * (their data could not be typed) and this one error is added instead.
 */
import { FieldError, type FieldErrorList } from '../../machinery/field/errors.js';

const BLOCKING = new Set([
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/** The error to add instead of running the rules, or undefined when they may run. */
export function blockingError(errs: FieldErrorList): FieldError | undefined {
  if (!errs.some((e) => BLOCKING.has(e.type))) return undefined;
  return new FieldError(
    'FieldValueInvalid',
    '<nil>',
    null,
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  );
}
