/** Secret validation (upstream ValidateSecret, ValidateSecretUpdate). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import { goJsonSyntaxError } from '../../../../machinery/gojson/syntax.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { JsonObject } from '../../../../util/json.js';
import { obj, str, strMap } from '../access.js';
import { bytesLength, invalidEach, isConfigMapKey } from './common.js';
import { maxDataSize, validateImmutableData } from './configmap.js';

export const serviceAccountNameAnnotation = 'kubernetes.io/service-account.name';

/** Go's json.Unmarshal error for a few common cases (approximate beyond them). */
/** Go's json.Unmarshal into map[string]interface{}: its error text, or undefined when it succeeds. */
function jsonError(bytes: Buffer): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    return goJsonSyntaxError(bytes)?.message ?? 'unexpected end of JSON input';
  }
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

export function validateSecret(secret: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const dataPath = FieldPath.root('data');
  const data = obj(secret, 'data') ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...invalidEach(dataPath.key(key), key, isConfigMapKey(key)));
    total += bytesLength(value);
  }
  if (total > maxDataSize) errs.push(fieldErrors.tooLong(dataPath, '', maxDataSize));
  const has = (k: string): boolean => data[k] !== undefined && data[k] !== null;
  const required = (k: string): FieldError => fieldErrors.required(dataPath.key(k), '');
  const checkJSON = (k: string): void => {
    if (!has(k)) {
      errs.push(required(k));
      return;
    }
    const value = data[k];
    const err = jsonError(typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0));
    if (err !== undefined) errs.push(fieldErrors.invalid(dataPath.key(k), '<secret contents redacted>', err));
  };
  switch (str(secret, 'type') ?? '') {
    case 'kubernetes.io/service-account-token': {
      const annotations = strMap(obj(secret, 'metadata'), 'annotations') ?? {};
      if ((annotations[serviceAccountNameAnnotation] ?? '') === '') {
        errs.push(
          fieldErrors.required(
            FieldPath.root('metadata', 'annotations').key(serviceAccountNameAnnotation),
            '',
          ),
        );
      }
      break;
    }
    case 'kubernetes.io/dockercfg':
      checkJSON('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      checkJSON('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) errs.push(required('username'), required('password'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (bytesLength(data['ssh-privatekey']) === 0) errs.push(required('ssh-privatekey'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required('tls.crt'));
      if (!has('tls.key')) errs.push(required('tls.key'));
      break;
    default:
      break;
  }
  return errs;
}

export function validateSecretUpdate(secret: JsonObject, old: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(secret, 'type') ?? '';
  if (type !== (str(old, 'type') ?? '')) errs.push(fieldErrors.invalid('type', type, 'field is immutable'));
  return [...errs, ...validateImmutableData(secret, old, ['data']), ...validateSecret(secret)];
}
