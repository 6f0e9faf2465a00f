/** Small validators shared by the core/v1 kinds (upstream pkg/apis/core/validation helpers). */
import { FieldError, fieldErrors, omitValue } from '../../../../machinery/field/errors.js';
import type { FieldPath } from '../../../../machinery/field/errors.js';
import { parseQuantity } from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import {
  dns1123SubdomainMaxLength,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  maxLenError,
  regexError,
} from '../../../../machinery/validation/names.js';

/** Each message of a string check as an Invalid error on `path`. */
export function invalidEach(path: FieldPath, value: unknown, msgs: readonly string[]): FieldError[] {
  return msgs.map((m) => fieldErrors.invalid(path, value, m));
}

export const validateDNS1123Label = (v: string, p: FieldPath): FieldError[] =>
  invalidEach(p, v, isDNS1123Label(v));
export const validateDNS1123Subdomain = (v: string, p: FieldPath): FieldError[] =>
  invalidEach(p, v, isDNS1123Subdomain(v));
export const validateDNS1035Label = (v: string, p: FieldPath): FieldError[] =>
  invalidEach(p, v, isDNS1035Label(v));
export const validateQualifiedName = (v: string, p: FieldPath): FieldError[] =>
  invalidEach(p, v, isQualifiedName(v));

export function validateNonnegative(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [fieldErrors.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

function chDirPrefixErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyRegexp = new RegExp(`^${configMapKeyFmt}$`);

/** Keys of ConfigMap/Secret data (upstream IsConfigMapKey). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRegexp.test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        configMapKeyFmt,
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    );
  }
  return [...errs, ...chDirPrefixErrors(value)];
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameRegexp = new RegExp(`^${envVarNameFmt}$`);

/** Upstream IsEnvVarName. */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRegexp.test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        envVarNameFmt,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  return [...errs, ...chDirPrefixErrors(value)];
}

const quantityRegexpText =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** A quantity field value: parsed, or an error for `path`. */
export function quantityAt(value: unknown, path: FieldPath): Quantity | FieldError {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return fieldErrors.invalid(path, value, quantityRegexpText);
  try {
    return parseQuantity(value);
  } catch {
    return fieldErrors.invalid(path, value, quantityRegexpText);
  }
}

/** A Duplicate error whose bad value is already rendered Go text (see gosyntax.invalidRendered). */
export function duplicateRendered(path: FieldPath, rendered: string, detail = ''): FieldError {
  return new FieldError(
    'FieldValueDuplicate',
    path,
    omitValue,
    detail === '' ? rendered : `${rendered}: ${detail}`,
  );
}

/** Base64-decoded byte length of a `[]byte` JSON value (0 when it is not a string). */
export function bytesLength(value: unknown): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
}
