/**
 * ObjectMeta of custom resources and of their embedded resources, as apiextensions-apiserver
 * v0.27 pkg/apiserver/schema/objectmeta: Coerce (metadata decoded as a Go ObjectMeta and written
 * back, so unknown metadata fields are pruned and, when asked, malformed ones dropped;
 * apiVersion/kind must be strings) and Validate (apiVersion, kind and metadata of embedded
 * resources, checked as ObjectMeta with path-segment names).
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { ObjectMeta } from '../../../machinery/object.js';
import { isDNS1035Label } from '../../../machinery/validation/names.js';
import { validateObjectMeta } from '../../../machinery/validation/objectmeta.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { decodeObject } from '../../decode/decode.js';
import { OBJECT_META } from '../../decode/defaults.js';
import { builtinSchemas } from '../../schema/builtin.js';
import { goBadValue } from './go-value.js';
import { asResourceRoot } from './structural.js';
import type { Structural } from './structural.js';

export interface ObjectMetaOptions {
  /** Drop fields that do not decode instead of failing. */
  readonly dropMalformedFields?: boolean;
  /** Report the paths of unknown metadata fields. */
  readonly returnUnknownFieldPaths?: boolean;
  /** Path of the object holding the metadata (undefined at the resource root). */
  readonly parentPath?: FieldPath | undefined;
}

export interface ObjectMetaResult {
  /** The decoded ObjectMeta as JSON, when metadata is present and decodes. */
  readonly meta?: JsonObject;
  readonly found: boolean;
  readonly unknownFieldPaths: string[];
  /** The first decode error (Go's json error text), when decoding failed and nothing is dropped. */
  readonly error?: string;
}

function decodeMeta(value: JsonValue): { object: JsonObject; errors: string[]; unknown: string[] } {
  const r = decodeObject({
    registry: builtinSchemas(),
    definition: OBJECT_META,
    body: value,
    fieldValidation: 'Strict',
  });
  const object = { ...r.object };
  const ts = object['creationTimestamp'];
  if (ts === null || ts === undefined || ts === '') delete object['creationTimestamp'];
  return { object, errors: r.errors, unknown: r.unknownFields };
}

function metadataPrefix(parent: FieldPath | undefined): string {
  return parent === undefined ? 'metadata' : parent.child('metadata').toString();
}

/** Upstream GetObjectMetaWithOptions over `obj.metadata`. */
export function getObjectMeta(obj: JsonObject, options: ObjectMetaOptions = {}): ObjectMetaResult {
  if (!Object.hasOwn(obj, 'metadata')) return { found: false, unknownFieldPaths: [] };
  const metadata = obj['metadata']!;
  const prefix = metadataPrefix(options.parentPath);
  const whole = decodeMeta(metadata);
  if (whole.errors.length === 0) {
    const unknown =
      options.returnUnknownFieldPaths === true ? whole.unknown.map((p) => `${prefix}.${p}`) : [];
    return { meta: whole.object, found: true, unknownFieldPaths: unknown };
  }
  if (options.dropMalformedFields !== true) {
    return { found: true, unknownFieldPaths: [], error: whole.errors[0] ?? '' };
  }
  if (!isJsonObject(metadata)) {
    return {
      found: false,
      unknownFieldPaths: [],
      error: `invalid metadata: expected object, got ${goTypeOf(metadata)}`,
    };
  }
  // Field by field: keep those that decode on their own.
  const meta: JsonObject = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(metadata)) {
    const one = decodeMeta({ [k]: v });
    if (one.errors.length > 0) continue;
    Object.assign(meta, one.object);
    if (options.returnUnknownFieldPaths === true) unknown.push(...one.unknown.map((p) => `${prefix}.${p}`));
  }
  return { meta, found: true, unknownFieldPaths: unknown };
}

function goTypeOf(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

export interface CoerceOptions {
  readonly dropInvalidFields?: boolean;
  readonly returnUnknownFieldPaths?: boolean;
}

export interface CoerceResult {
  readonly error?: FieldError;
  readonly unknownFieldPaths: string[];
}

function childOf(p: FieldPath | undefined, name: string): FieldPath {
  return p === undefined ? FieldPath.root(name) : p.child(name);
}

function keyOf(p: FieldPath | undefined, key: string): FieldPath {
  return p === undefined ? FieldPath.root('').key(key) : p.key(key);
}

function indexOf(p: FieldPath | undefined, i: number): FieldPath {
  return p === undefined ? FieldPath.root('').index(i) : p.index(i);
}

/**
 * Upstream CoerceWithOptions: rewrites the metadata of the resource (and of embedded resources)
 * as a Go ObjectMeta would serialize, in place. Returns the first error (none when dropping).
 */
export function coerce(
  path: FieldPath | undefined,
  obj: JsonValue,
  schema: Structural | undefined,
  isResourceRoot: boolean,
  options: CoerceOptions = {},
): CoerceResult {
  const s = isResourceRoot ? asResourceRoot(schema) : schema;
  const unknown: string[] = [];
  const error = coerceValue(path, obj, s, options, unknown);
  unknown.sort();
  return error === undefined ? { unknownFieldPaths: unknown } : { error, unknownFieldPaths: unknown };
}

function coerceValue(
  path: FieldPath | undefined,
  x: JsonValue,
  s: Structural | undefined,
  opts: CoerceOptions,
  unknown: string[],
): FieldError | undefined {
  if (s === undefined) return undefined;
  const drop = opts.dropInvalidFields === true;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = coerceValue(indexOf(path, i), x[i]!, s.items, opts, unknown);
      if (err !== undefined) return err;
    }
    return undefined;
  }
  if (!isJsonObject(x)) return undefined;
  for (const k of Object.keys(x)) {
    const v = x[k]!;
    if (s.extensions.embeddedResource) {
      if (k === 'apiVersion' || k === 'kind') {
        if (typeof v !== 'string') {
          if (drop) delete x[k];
          else return fieldErrors.invalid(childOf(path, k), goBadValue(v), 'must be a string');
        }
      } else if (k === 'metadata') {
        const r = getObjectMeta(x, {
          dropMalformedFields: drop,
          returnUnknownFieldPaths: opts.returnUnknownFieldPaths === true,
          parentPath: path,
        });
        unknown.push(...r.unknownFieldPaths);
        if (r.error !== undefined) {
          if (!drop) return fieldErrors.invalid(childOf(path, 'metadata'), goBadValue(v), r.error);
        } else if (r.found && r.meta !== undefined) {
          x['metadata'] = r.meta;
        }
      }
    }
    const prop = s.properties?.get(k);
    const ap = s.generic.additionalProperties;
    let err: FieldError | undefined;
    if (prop !== undefined) err = coerceValue(childOf(path, k), v, prop, opts, unknown);
    else if (ap !== undefined) err = coerceValue(keyOf(path, k), v, ap.structural, opts, unknown);
    if (err !== undefined) return err;
  }
  return undefined;
}

/** schema.ParseGroupVersion's error for an apiVersion, or undefined. */
function parseGroupVersionError(gv: string): string | undefined {
  if (gv === '' || gv === '/') return undefined;
  const slashes = gv.split('/').length - 1;
  return slashes <= 1 ? undefined : `unexpected GroupVersion string: ${gv}`;
}

/** Upstream objectmeta.Validate: apiVersion, kind and metadata of embedded resources. */
export function validateEmbedded(
  path: FieldPath | undefined,
  obj: JsonValue,
  schema: Structural | undefined,
  isResourceRoot: boolean,
): FieldError[] {
  const s = isResourceRoot ? asResourceRoot(schema) : schema;
  return validateValue(path, obj, s);
}

function validateValue(path: FieldPath | undefined, x: JsonValue, s: Structural | undefined): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    x.forEach((v, i) => errs.push(...validateValue(indexOf(path, i), v, s.items)));
  } else if (isJsonObject(x)) {
    if (s.extensions.embeddedResource) errs.push(...validateEmbeddedResource(path, x));
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k);
      const ap = s.generic.additionalProperties;
      if (prop !== undefined) errs.push(...validateValue(childOf(path, k), v, prop));
      else if (ap !== undefined) errs.push(...validateValue(keyOf(path, k), v, ap.structural));
    }
  }
  return errs;
}

function validateEmbeddedResource(path: FieldPath | undefined, x: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion'))
    errs.push(fieldErrors.required(childOf(path, 'apiVersion'), 'must not be empty'));
  if (!Object.hasOwn(x, 'kind')) errs.push(fieldErrors.required(childOf(path, 'kind'), 'must not be empty'));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      const p = childOf(path, k);
      if (typeof v !== 'string') errs.push(fieldErrors.invalid(p, goBadValue(v), 'must be a string'));
      else if (v === '') errs.push(fieldErrors.invalid(p, v, 'must not be empty'));
      else {
        const err = parseGroupVersionError(v);
        if (err !== undefined) errs.push(fieldErrors.invalid(p, v, err));
      }
    } else if (k === 'kind') {
      const p = childOf(path, k);
      if (typeof v !== 'string') errs.push(fieldErrors.invalid(p, goBadValue(v), 'must be a string'));
      else if (v === '') errs.push(fieldErrors.invalid(p, v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) {
          errs.push(
            fieldErrors.invalid(p, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`),
          );
        }
      }
    } else if (k === 'metadata') {
      const p = childOf(path, 'metadata');
      const r = getObjectMeta(x);
      if (r.error !== undefined || r.meta === undefined) {
        errs.push(fieldErrors.invalid(p, goBadValue(v), r.error ?? ''));
      } else {
        const meta = { ...r.meta } as ObjectMeta;
        if ((meta.name ?? '') === '') meta.name = 'fakename';
        const namespaced = (meta.namespace ?? '') !== '';
        errs.push(...validateObjectMeta(meta, { namespaced, nameValidation: 'pathSegment' }, p));
      }
    }
  }
  return errs;
}
