/**
 * Turning a request body into a typed object of the endpoint's kind: apiVersion/kind checks,
 * schema-driven decoding, unknown/duplicate fields per fieldValidation, then defaulting.
 */
import { apiVersionOf } from '../apis/resource.js';
import type { ResourceInfo } from '../apis/resource.js';
import { decodeObject } from '../apis/decode/decode.js';
import { strictDecodingErrorMessage, strictDecodingWarnings } from '../apis/decode/messages.js';
import type { SchemaRegistry } from '../apis/schema/types.js';
import { apiErrors } from '../machinery/errors.js';
import { checkBodyKind } from '../machinery/scheme/kinds.js';
import type { GroupVersionKind } from '../machinery/scheme/kinds.js';
import type { KubeObject } from '../machinery/object.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import type { DecodedBody } from './body.js';
import { unrecognizedBody } from './body.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function fieldValidationOf(url: URL): FieldValidation {
  const v = url.searchParams.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw apiErrors.badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict", got: ${v}`);
}

export interface TypedBody {
  readonly object: KubeObject;
  readonly warnings: string[];
}

/** reflect's name of the struct upstream's SimpleMetaFactory.Interpret unmarshals a body into. */
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** How encoding/json names a JSON value's kind in an UnmarshalTypeError. */
function goJsonValueKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/**
 * The error of upstream's `json.Unmarshal(body, &findKind)` (apiVersion and kind read before
 * anything else) for a syntactically valid body, or undefined. Go matches the two field names
 * case-insensitively and keeps the first type error in document order.
 */
export function interpretError(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (!isJsonObject(value)) {
    return `json: cannot unmarshal ${goJsonValueKind(value)} into Go value of type ${findKindType}`;
  }
  for (const [key, v] of Object.entries(value)) {
    const field = key.toLowerCase();
    if (field !== 'apiversion' && field !== 'kind') continue;
    if (v === null || typeof v === 'string') continue;
    const name = field === 'kind' ? 'kind' : 'apiVersion';
    return `json: cannot unmarshal ${goJsonValueKind(v)} into Go struct field .${name} of type string`;
  }
  return undefined;
}

/**
 * The group, version and kind upstream's decoder reads from a body (json/meta.go Interpret,
 * schema.FromAPIVersionAndKind: an apiVersion with more than one "/" counts as none), completed
 * from the endpoint's as the json serializer's gvkWithDefaults does.
 */
export function bodyKind(endpoint: GroupVersionKind, apiVersion: string, kind: string): GroupVersionKind {
  let group = '';
  let version = '';
  const slashes = apiVersion.split('/').length - 1;
  if (apiVersion !== '/' && slashes === 0) version = apiVersion;
  else if (apiVersion !== '/' && slashes === 1) [group = '', version = ''] = apiVersion.split('/');
  if (version === '' && (group === '' || group === endpoint.group)) {
    group = endpoint.group;
    version = endpoint.version;
  }
  return { group, version, kind: kind === '' ? endpoint.kind : kind };
}

/**
 * Checks apiVersion and kind of a body meant for `info` (upstream's decoding into the endpoint's
 * type, then handlers/create.go's and update.go's group/version check).
 */
export function checkTypeMeta(
  info: ResourceInfo,
  value: unknown,
  raw: string,
  bytes?: Uint8Array,
): JsonObject {
  if (bytes !== undefined) {
    const err = interpretError(value);
    if (err !== undefined) {
      throw unrecognizedBody(info.kind, `couldn't get version/kind; json parse error: ${err}`, bytes);
    }
    // `null` reads as an empty object of the endpoint's kind.
    if (value === null) value = {};
  }
  if (!isJsonObject(value)) {
    throw apiErrors.badRequest(`Object 'Kind' is missing in '${raw.slice(0, 200)}'`);
  }
  const kind = value['kind'] ?? '';
  const apiVersion = value['apiVersion'] ?? '';
  if (typeof kind !== 'string' || typeof apiVersion !== 'string') {
    throw apiErrors.badRequest(`Object 'Kind' is missing in '${raw.slice(0, 200)}'`);
  }
  const body = bodyKind(info, apiVersion, kind);
  const cannot = (err: string): Error =>
    apiErrors.badRequest(
      `${body.kind} in version "${body.version}" cannot be handled as a ${info.kind}: ${err}`,
    );
  if (body.version === '') throw cannot(`Object 'apiVersion' is missing in '${raw}'`);
  const check = checkBodyKind(info, body);
  if ('decodeError' in check) throw cannot(check.decodeError);
  if ('mismatch' in check) throw apiErrors.badRequest(check.mismatch);
  // Decoded into the endpoint's kind: a body without apiVersion/kind takes them from it.
  value['kind'] = info.kind;
  value['apiVersion'] = apiVersionOf(info);
  return value;
}

/** What a decoder gets: the endpoint's resource, the server's schemas, the body, the validation mode. */
export interface DecodeOptions {
  readonly info: ResourceInfo;
  readonly schemas: SchemaRegistry;
  readonly body: DecodedBody | { readonly value: unknown; readonly raw?: string };
  readonly fieldValidation: FieldValidation;
}

/**
 * Turns a request body into an object of the endpoint's kind. Each endpoint may bring its own
 * (custom resources: a structural-schema decoder with pruning); built-ins use `decodeTyped`.
 */
export type BodyDecoder = (options: DecodeOptions) => TypedBody;

/** Decodes and defaults a full object body (create, update, and a patched object). */
export function decodeTyped(options: DecodeOptions): TypedBody {
  const { info, body } = options;
  const raw = body.raw ?? '';
  const value = checkTypeMeta(info, body.value, raw, 'bytes' in body ? body.bytes : undefined);
  const r = decodeObject({
    registry: options.schemas,
    definition: info.definition,
    body: value,
    ...(body.raw !== undefined && options.fieldValidation !== 'Ignore' ? { raw: body.raw } : {}),
    fieldValidation: options.fieldValidation,
  });
  const cannot = `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}`;
  // Upstream's decoder stops at the first type error.
  if (r.errors.length > 0) throw apiErrors.badRequest(`${cannot}: ${r.errors[0]!}`);
  const warnings: string[] = [];
  if (options.fieldValidation === 'Strict') {
    const message = strictDecodingErrorMessage(r);
    if (message !== undefined) throw apiErrors.badRequest(`${cannot}: ${message}`);
  } else if (options.fieldValidation === 'Warn') {
    warnings.push(...strictDecodingWarnings(r));
  }
  const object = r.object as KubeObject;
  if (!isJsonObject(object['metadata'])) object['metadata'] = {};
  info.defaulter?.(object);
  return { object, warnings };
}
