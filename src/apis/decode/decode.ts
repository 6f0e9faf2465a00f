/**
 * Schema-driven decoding of a JSON request body into a built-in kind, matching what kube-apiserver
 * v1.27 does when it unmarshals JSON into the Go struct with sigs.k8s.io/json: type mismatches are
 * fatal (with Go's error texts), `null` means absent, unknown fields are dropped (and reported as
 * strict-decoding errors), repeated keys keep the last value (and are reported).
 */
import { cloneJson } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { scanDuplicateFields } from './duplicates.js';
import type { PathSegment } from './duplicates.js';
import { goQualifiedName, goStructName, goTypeString, jsonKind } from './go-types.js';
import { OBJECT_META, QUANTITY, propertyDefaults } from './defaults.js';
import type { PropertyDefault } from './defaults.js';
import { canonicalQuantityJSON } from './quantity.js';
import { base64Error, timeError } from './scalars.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface DecodeOptions {
  readonly registry: SchemaRegistry;
  /** Definition name of the kind, e.g. `io.k8s.api.apps.v1.Deployment`. */
  readonly definition: string;
  /** The JSON.parse result of the body. */
  readonly body: unknown;
  /** The body text; needed to detect duplicate fields. */
  readonly raw?: string;
  readonly fieldValidation: FieldValidation;
}

export interface DecodeResult {
  /** The body with unknown fields and nulls removed. */
  readonly object: JsonObject;
  /** Fatal decode errors (`json: cannot unmarshal ...`), in document order; upstream reports the first. */
  readonly errors: string[];
  /** Paths of unknown fields as upstream prints them (`spec.foo`); empty when fieldValidation is Ignore. */
  readonly unknownFields: string[];
  /** Paths of repeated keys (`metadata.name`); empty when fieldValidation is Ignore or raw is absent. */
  readonly duplicateFields: string[];
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** 2^63, the first value outside int64 (as a double). */
const INT64_LIMIT = 2 ** 63;

function isEmptyCollection(v: JsonValue): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Walked struct defaults by property (see Walker.#zeroStruct). */
const zeroStructs = new WeakMap<PropertyDefault, JsonValue>();

class Walker {
  readonly errors: string[] = [];
  readonly unknown: string[] = [];
  readonly #registry: SchemaRegistry;
  readonly #strict: boolean;
  /** Struct field names from the root (Go's errorContext.FieldStack). */
  readonly #fields: string[] = [];
  /** Keys and indexes from the root (sigs.k8s.io/json's strict field path). */
  readonly #path: PathSegment[] = [];
  #struct = '';

  constructor(registry: SchemaRegistry, strict: boolean) {
    this.#registry = registry;
    this.#strict = strict;
  }

  #typeError(kind: string, schema: Schema): void {
    this.#plainTypeError(kind, goTypeString(this.#registry, schema));
  }

  #plainTypeError(kind: string, type: string): void {
    this.errors.push(
      this.#fields.length > 0
        ? `json: cannot unmarshal ${kind} into Go struct field ${this.#struct}.${this.#fields.join('.')} of type ${type}`
        : `json: cannot unmarshal ${kind} into Go value of type ${type}`,
    );
  }

  #pathText(key: string): string {
    let out = '';
    for (const s of this.#path) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
    return out === '' ? key : `${out}.${key}`;
  }

  /** Decodes a value; undefined means "leave the field out". */
  value(v: unknown, schema: Schema): JsonValue | undefined {
    if (v === null || v === undefined) return undefined;
    const ref = 'ref' in schema ? schema.ref : undefined;
    const s = this.#registry.resolve(schema);
    if (ref === QUANTITY) return this.#quantity(v);
    switch (s.type) {
      case 'any':
        return v as JsonValue;
      case 'string':
        if (typeof v !== 'string') {
          // metav1.Time decodes through a plain string, so its error names `string`
          if (s.format === 'date-time' && ref !== undefined) this.#plainTypeError(jsonKind(v), 'string');
          else this.#typeError(jsonKind(v), schema);
          return undefined;
        }
        if (s.format === 'byte') this.#pushIf(base64Error(v));
        else if (s.format === 'date-time' && ref !== undefined)
          this.#pushIf(timeError(v, ref.endsWith('MicroTime')));
        return v;
      case 'boolean':
        if (typeof v === 'boolean') return v;
        this.#typeError(jsonKind(v), schema);
        return undefined;
      case 'number':
        if (typeof v === 'number') return v;
        this.#typeError(jsonKind(v), schema);
        return undefined;
      case 'integer':
        return this.#integer(v, s.format === 'int32', schema);
      case 'int-or-string':
        if (typeof v === 'string') return v;
        return this.#integer(v, true, undefined);
      case 'array':
        return this.#array(v, s.items, schema);
      case 'object':
        if (!isObject(v)) {
          this.#typeError(jsonKind(v), schema);
          return undefined;
        }
        if (s.properties !== undefined) return this.#struct_(v, s.properties, ref, s.required);
        if (s.additionalProperties === true || s.additionalProperties === undefined) return v as JsonObject;
        return this.#map(v, s.additionalProperties);
    }
  }

  #pushIf(error: string | undefined): void {
    if (error !== undefined) this.errors.push(error);
  }

  #integer(v: unknown, int32: boolean, schema: Schema | undefined): JsonValue | undefined {
    const type = int32 ? 'int32' : 'int64';
    if (typeof v !== 'number') {
      if (schema === undefined) this.#plainTypeError(jsonKind(v), type);
      else this.#typeError(jsonKind(v), schema);
      return undefined;
    }
    const inRange = int32 ? v >= INT32_MIN && v <= INT32_MAX : v >= -INT64_LIMIT && v < INT64_LIMIT;
    if (!Number.isInteger(v) || !inRange) {
      this.#plainTypeError(`number ${String(v)}`, type);
      return undefined;
    }
    return v;
  }

  #quantity(v: unknown): JsonValue | undefined {
    const r = canonicalQuantityJSON(v);
    if (typeof r === 'string') return r;
    this.errors.push(r.message);
    return undefined;
  }

  /** What Go stores for a `null` element of a slice or map. */
  #zero(schema: Schema): JsonValue {
    const ref = 'ref' in schema ? schema.ref : undefined;
    if (ref === QUANTITY) return '0';
    const s = this.#registry.resolve(schema);
    switch (s.type) {
      case 'string':
        return s.format === 'byte' || (s.format === 'date-time' && ref !== undefined) ? null : '';
      case 'integer':
      case 'number':
      case 'int-or-string':
        return 0;
      case 'boolean':
        return false;
      case 'object':
        // a zero struct, with its own zero fields
        return s.properties !== undefined ? (this.value({}, schema) ?? {}) : null;
      default:
        return null;
    }
  }

  #array(v: unknown, items: Schema, schema: Schema): JsonValue | undefined {
    if (!Array.isArray(v)) {
      this.#typeError(jsonKind(v), schema);
      return undefined;
    }
    const out: JsonValue[] = new Array<JsonValue>(v.length);
    this.#path.push(0);
    for (let i = 0; i < v.length; i++) {
      this.#path[this.#path.length - 1] = i;
      const item: unknown = v[i];
      out[i] = item === null ? this.#zero(items) : (this.value(item, items) ?? this.#zero(items));
    }
    this.#path.pop();
    return out;
  }

  #map(v: Record<string, unknown>, values: Schema): JsonObject {
    const out: JsonObject = {};
    for (const key of Object.keys(v)) {
      const item = v[key];
      this.#path.push(key);
      out[key] = item === null ? this.#zero(values) : (this.value(item, values) ?? this.#zero(values));
      this.#path.pop();
    }
    return out;
  }

  #struct_(
    v: Record<string, unknown>,
    props: Readonly<Record<string, Schema>>,
    ref: string | undefined,
    required: readonly string[] | undefined,
  ): JsonObject {
    const out: JsonObject = {};
    const outer = this.#struct;
    const name = ref === undefined ? outer : goStructName(ref);
    for (const key of Object.keys(v)) {
      if (this.#fields.length === 0 && (key === 'apiVersion' || key === 'kind')) {
        // checked by the handler, whatever their JSON type
        if (v[key] !== null) out[key] = v[key] as JsonValue;
        continue;
      }
      const prop = Object.hasOwn(props, key) ? props[key] : undefined;
      if (prop === undefined) {
        if (this.#strict) this.unknown.push(this.#pathText(key));
        continue;
      }
      this.#struct = name;
      this.#fields.push(key);
      this.#path.push(key);
      const decoded = this.value(v[key], prop);
      this.#path.pop();
      this.#fields.pop();
      if (
        decoded !== undefined &&
        !(isEmptyCollection(decoded) && !required?.includes(key) && this.#omitsEmpty(prop))
      ) {
        out[key] = decoded;
      }
    }
    this.#struct = outer;
    for (const d of propertyDefaults(this.#registry, props)) {
      if (!Object.hasOwn(out, d.key))
        out[d.key] = d.struct === undefined ? (d.scalar ?? null) : this.#zeroStruct(d);
    }
    // A zero metav1.Time prints as null, so every ObjectMeta shows creationTimestamp.
    if (ref === OBJECT_META && !Object.hasOwn(out, 'creationTimestamp')) out['creationTimestamp'] = null;
    return out;
  }

  /**
   * Go's `omitempty` drops empty slices and maps (not structs). The schema does not record the tag;
   * optional (not required) slices and maps carry it in the built-in types, so those are dropped
   * when empty, as an emptied `metadata.labels` disappears upstream.
   */
  #omitsEmpty(prop: Schema): boolean {
    const s = this.#registry.resolve(prop);
    return (
      s.type === 'array' ||
      (s.type === 'object' && s.properties === undefined && s.additionalProperties !== undefined)
    );
  }

  /** A copy of the defaulted zero value of a struct property (its default walked once, then cached). */
  #zeroStruct(d: PropertyDefault): JsonValue {
    let zero = zeroStructs.get(d);
    if (zero === undefined) {
      zero = new Walker(this.#registry, false).value(d.struct, d.schema) ?? {};
      zeroStructs.set(d, zero);
    }
    return cloneJson(zero);
  }
}

/** Whether upstream's decoder would check duplicates at this path (a known struct field or map key). */
function decodedPath(
  registry: SchemaRegistry,
  definition: string,
  segments: readonly PathSegment[],
): boolean {
  const root = registry.get(definition);
  if (root === undefined) return false;
  let current: Schema = root.schema;
  for (const seg of segments) {
    const s = registry.resolve(current);
    if (s.type === 'array' && typeof seg === 'number') current = s.items;
    else if (s.type === 'object' && typeof seg === 'string') {
      const prop =
        s.properties !== undefined && Object.hasOwn(s.properties, seg) ? s.properties[seg] : undefined;
      if (prop !== undefined) current = prop;
      else if (s.additionalProperties === true) return true;
      else if (s.additionalProperties !== undefined) current = s.additionalProperties;
      else return false;
    } else return false;
  }
  return true;
}

export function decodeObject(options: DecodeOptions): DecodeResult {
  const { registry, definition, body, raw, fieldValidation } = options;
  const def = registry.get(definition);
  if (def === undefined) throw new Error(`unknown schema definition ${definition}`);
  const strict = fieldValidation !== 'Ignore';
  const walker = new Walker(registry, strict);
  let object: JsonObject = {};
  if (!isObject(body)) {
    walker.errors.push(
      `json: cannot unmarshal ${jsonKind(body)} into Go value of type ${goQualifiedName(definition)}`,
    );
  } else {
    const decoded = walker.value(body, { ref: definition });
    if (isObject(decoded)) object = decoded;
  }
  const duplicateFields: string[] = [];
  if (strict && raw !== undefined) {
    for (const d of scanDuplicateFields(raw)) {
      if (decodedPath(registry, definition, d.segments)) duplicateFields.push(d.path);
    }
  }
  return { object, errors: walker.errors, unknownFields: walker.unknown, duplicateFields };
}
