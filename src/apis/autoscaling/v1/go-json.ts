/**
 * Just enough of Go's encoding/json, driven by a description of the Go struct, for the values
 * autoscaling/v1 round-trips through annotations: `json.Unmarshal` (field names matched
 * case-insensitively, unknown fields ignored, a type mismatch fails the whole value) and
 * `json.Marshal` (struct field order, omitempty, sorted map keys, Go's string escaping, nil as
 * null). The same description also gives a stored object's fields their Go zero values.
 */
import { canonicalQuantityJSON } from '../../decode/quantity.js';
import { timeError } from '../../decode/scalars.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';

/** A Go type as far as JSON cares. */
export type GoType =
  | { readonly kind: 'string' }
  | { readonly kind: 'int32' }
  | { readonly kind: 'int64' }
  /** resource.Quantity (a struct: never omitted as empty). */
  | { readonly kind: 'quantity' }
  /** metav1.Time (a struct; the zero time marshals as null). */
  | { readonly kind: 'time' }
  | { readonly kind: 'ptr'; readonly elem: GoType }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | { readonly kind: 'stringMap' }
  | { readonly kind: 'struct'; readonly fields: readonly GoField[] };

export interface GoField {
  /** The JSON name (the Go field name for untagged internal structs). */
  readonly name: string;
  readonly type: GoType;
  readonly omitempty?: boolean;
}

/** Constructors for type descriptions. */
export const go = {
  string: { kind: 'string' } as GoType,
  int32: { kind: 'int32' } as GoType,
  int64: { kind: 'int64' } as GoType,
  quantity: { kind: 'quantity' } as GoType,
  time: { kind: 'time' } as GoType,
  stringMap: { kind: 'stringMap' } as GoType,
  ptr: (elem: GoType): GoType => ({ kind: 'ptr', elem }),
  slice: (elem: GoType): GoType => ({ kind: 'slice', elem }),
  struct: (...fields: GoField[]): GoType => ({ kind: 'struct', fields }),
  /** A field without omitempty. */
  field: (name: string, type: GoType): GoField => ({ name, type }),
  /** A field tagged `json:"name,omitempty"`. */
  opt: (name: string, type: GoType): GoField => ({ name, type, omitempty: true }),
} as const;

/** A value json.Unmarshal rejects (wrong JSON type, bad quantity or time). */
export class GoDecodeError extends Error {
  override readonly name = 'GoDecodeError';
}

/**
 * A decoded Go value as JSON: nil pointers, slices and maps are undefined (an empty slice or map
 * stays [] / {}); scalars and structs always have a value; a zero Time is null.
 */
export type GoValue = JsonValue | undefined;

export interface DecodeOptions {
  /** Type mismatches throw GoDecodeError (json.Unmarshal); otherwise they read as zero values. */
  readonly strict: boolean;
}

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

function mismatch(options: DecodeOptions, what: string, v: JsonValue): undefined {
  if (options.strict) throw new GoDecodeError(`json: cannot unmarshal ${JSON.stringify(v)} into ${what}`);
  return undefined;
}

function decodeInt(v: JsonValue, limit: number, options: DecodeOptions, what: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= -limit && v < limit) return v;
  mismatch(options, what, v);
  return 0;
}

/** ASCII case folding, as encoding/json's field matching for these (ASCII) names. */
function sameFold(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}

/**
 * The input key each struct field takes its value from: the exact name wins, then the first
 * field whose name folds to the key; a later key for the same field overwrites an earlier one.
 */
function fieldInputs(fields: readonly GoField[], input: JsonObject): Map<GoField, JsonValue> {
  const out = new Map<GoField, JsonValue>();
  for (const [key, value] of Object.entries(input)) {
    const f = fields.find((x) => x.name === key) ?? fields.find((x) => sameFold(x.name, key));
    if (f !== undefined) out.set(f, value);
  }
  return out;
}

function zeroOf(type: GoType): GoValue {
  switch (type.kind) {
    case 'string':
      return '';
    case 'int32':
    case 'int64':
      return 0;
    case 'quantity':
      return '0';
    case 'time':
      return null;
    case 'struct': {
      const out: JsonObject = {};
      for (const f of type.fields) {
        const z = zeroOf(f.type);
        if (z !== undefined) out[f.name] = z;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** RFC 3339 text as metav1.Time marshals it after parsing: UTC, whole seconds. */
function normalizeTime(text: string): string | undefined {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const out = new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  // The zero time marshals as null.
  return out === '0001-01-01T00:00:00Z' ? undefined : out;
}

/** json.Unmarshal of `v` (undefined: the key is absent) into a fresh value of `type`. */
export function goDecode(type: GoType, v: JsonValue | undefined, options: DecodeOptions): GoValue {
  if (v === undefined || v === null) return zeroOf(type);
  switch (type.kind) {
    case 'string':
      return typeof v === 'string' ? v : (mismatch(options, 'Go value of type string', v) ?? '');
    case 'int32':
      return decodeInt(v, INT32, options, 'Go value of type int32');
    case 'int64':
      return decodeInt(v, INT64, options, 'Go value of type int64');
    case 'quantity': {
      if (typeof v !== 'string' && typeof v !== 'number') {
        return mismatch(options, 'resource.Quantity', v) ?? '0';
      }
      const q = canonicalQuantityJSON(v);
      return typeof q === 'string' ? q : (mismatch(options, 'resource.Quantity', v) ?? '0');
    }
    case 'time': {
      if (typeof v === 'string' && timeError(v, false) === undefined) return normalizeTime(v) ?? null;
      return mismatch(options, 'metav1.Time', v) ?? null;
    }
    case 'ptr':
      return goDecode(type.elem, v, options);
    case 'slice':
      if (!Array.isArray(v)) return mismatch(options, 'Go slice', v);
      return v.map((x) => goDecode(type.elem, x, options) ?? null);
    case 'stringMap': {
      if (!isJsonObject(v)) return mismatch(options, 'Go map[string]string', v);
      const out: JsonObject = {};
      for (const [k, x] of Object.entries(v)) {
        const s = goDecode(go.string, x, options);
        out[k] = typeof s === 'string' ? s : '';
      }
      return out;
    }
    case 'struct': {
      if (!isJsonObject(v)) return mismatch(options, 'Go struct', v) ?? zeroOf(type);
      const inputs = fieldInputs(type.fields, v);
      const out: JsonObject = {};
      for (const f of type.fields) {
        const d = goDecode(f.type, inputs.get(f), options);
        if (d !== undefined) out[f.name] = d;
      }
      return out;
    }
  }
}

function isEmpty(type: GoType, v: GoValue): boolean {
  switch (type.kind) {
    case 'string':
      return v === undefined || v === '';
    case 'int32':
    case 'int64':
      return v === undefined || v === 0;
    case 'ptr':
      return v === undefined || v === null;
    case 'slice':
      return !Array.isArray(v) || v.length === 0;
    case 'stringMap':
      return !isJsonObject(v) || Object.keys(v).length === 0;
    default:
      // Structs (Quantity and Time included) are never empty to encoding/json.
      return false;
  }
}

/**
 * A Go value (as goDecode yields it, or built in that shape) as json.Marshal prints it, as JSON:
 * fields in declaration order, omitempty applied, nil as null.
 */
export function goEncode(type: GoType, v: GoValue): JsonValue {
  if (type.kind === 'ptr') return v === undefined || v === null ? null : goEncode(type.elem, v);
  if (type.kind === 'slice') return Array.isArray(v) ? v.map((x) => goEncode(type.elem, x)) : null;
  if (type.kind === 'stringMap') {
    if (!isJsonObject(v)) return null;
    const out: JsonObject = {};
    for (const k of Object.keys(v).sort(compareBytes)) out[k] = v[k]!;
    return out;
  }
  if (type.kind === 'struct') {
    const src = isJsonObject(v) ? v : {};
    const out: JsonObject = {};
    for (const f of type.fields) {
      const x = src[f.name];
      if (f.omitempty === true && isEmpty(f.type, x)) continue;
      out[f.name] = goEncode(f.type, x);
    }
    return out;
  }
  if (v === undefined) return zeroOf(type) ?? null;
  return v;
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const hex = '0123456789abcdef';

/** A string as Go 1.20's encoding/json writes it (HTML-safe: <, > and & escaped). */
export function goQuoteJSON(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&') out += `\\u00${hex[c >> 4]}${hex[c & 15]}`;
    else if (c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return `${out}"`;
}

/** json.Marshal's text of a value already in goEncode's shape (map keys sorted by goEncode). */
export function goMarshalJSON(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuoteJSON(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goMarshalJSON).join(',')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${goQuoteJSON(k)}:${goMarshalJSON(x)}`)
    .join(',')}}`;
}

/** json.Marshal of a Go value of `type`, with map keys in Go's (byte) order. */
export function goMarshal(type: GoType, v: GoValue): string {
  return marshalTyped(type, v);
}

function marshalTyped(type: GoType, v: GoValue): string {
  switch (type.kind) {
    case 'ptr':
      return v === undefined || v === null ? 'null' : marshalTyped(type.elem, v);
    case 'slice':
      return Array.isArray(v) ? `[${v.map((x) => marshalTyped(type.elem, x)).join(',')}]` : 'null';
    case 'stringMap': {
      // JS objects list integer-like keys first: sort here, not through an object.
      if (!isJsonObject(v)) return 'null';
      const keys = Object.keys(v).sort(compareBytes);
      return `{${keys.map((k) => `${goQuoteJSON(k)}:${goMarshalJSON(v[k]!)}`).join(',')}}`;
    }
    case 'struct': {
      const src = isJsonObject(v) ? v : {};
      const parts: string[] = [];
      for (const f of type.fields) {
        const x = src[f.name];
        if (f.omitempty === true && isEmpty(f.type, x)) continue;
        parts.push(`${goQuoteJSON(f.name)}:${marshalTyped(f.type, x)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return goMarshalJSON(goEncode(type, v));
  }
}

/**
 * json.Unmarshal of annotation text into `type`: undefined when the text is not JSON or does not
 * fit the type (upstream then ignores the annotation).
 */
export function goUnmarshal(type: GoType, text: string): { readonly value: GoValue } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    return { value: goDecode(type, parsed as JsonValue, { strict: true }) };
  } catch (e) {
    if (e instanceof GoDecodeError) return undefined;
    throw e;
  }
}
