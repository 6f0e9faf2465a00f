/** ConfigMap validation (upstream ValidateConfigMap, ValidateConfigMapUpdate). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { jsonEqual } from '../../../../util/json.js';
import type { JsonObject } from '../../../../util/json.js';
import { bool, obj } from '../access.js';
import { bytesLength, invalidEach, isConfigMapKey } from './common.js';

/** Upstream core.MaxSecretSize, which also bounds ConfigMaps. */
export const maxDataSize = 1024 * 1024;
export const immutableDetail = 'field is immutable when `immutable` is set';

export function validateConfigMap(cm: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj(cm, 'data') ?? {};
  const binary = obj(cm, 'binaryData') ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    const p = FieldPath.root('data').key(key);
    errs.push(...invalidEach(p, key, isConfigMapKey(key)));
    if (binary[key] !== undefined)
      errs.push(fieldErrors.invalid(p, key, 'duplicate of key present in binaryData'));
    total += typeof value === 'string' ? Buffer.byteLength(value) : 0;
  }
  for (const [key, value] of Object.entries(binary)) {
    errs.push(...invalidEach(FieldPath.root('binaryData').key(key), key, isConfigMapKey(key)));
    total += bytesLength(value);
  }
  if (total > maxDataSize) errs.push(fieldErrors.tooLong('', '', maxDataSize));
  return errs;
}

/** The `immutable` rules shared by ConfigMaps and Secrets. */
export function validateImmutableData(
  obj1: JsonObject,
  old: JsonObject,
  keys: readonly string[],
): FieldError[] {
  if (bool(old, 'immutable') !== true) return [];
  const errs: FieldError[] = [];
  if (bool(obj1, 'immutable') !== true) errs.push(fieldErrors.forbidden('immutable', immutableDetail));
  for (const key of keys) {
    if (!jsonEqual(obj1[key], old[key])) errs.push(fieldErrors.forbidden(key, immutableDetail));
  }
  return errs;
}

export function validateConfigMapUpdate(cm: JsonObject, old: JsonObject): FieldError[] {
  return [...validateImmutableData(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)];
}
