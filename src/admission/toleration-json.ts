/**
 * Tolerations as PodTolerationRestriction decodes them from namespace annotations and its
 * configuration (encoding/json into []v1.Toleration): null is a nil list, a null item the zero
 * toleration, unknown fields are ignored, and a wrongly typed field fails with Go's
 * UnmarshalTypeError text. The result is canonical v1 JSON (empty fields left out, as the Go
 * struct would serialize with omitempty).
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';

export type TolerationsResult =
  | { readonly ok: true; readonly tolerations: JsonObject[] | undefined }
  | { readonly ok: false; readonly error: string };

const stringFields = [
  ['key', 'string'],
  ['operator', 'v1.TolerationOperator'],
  ['value', 'string'],
  ['effect', 'v1.TaintEffect'],
] as const;

/** Go's name of a JSON value's kind in an UnmarshalTypeError. */
function jsonKind(v: JsonValue): string {
  if (typeof v === 'number') return `number ${String(v)}`;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

const typeError = (v: JsonValue, field: string, goType: string): string =>
  `json: cannot unmarshal ${jsonKind(v)} into Go struct field Toleration.${field} of type ${goType}`;

function toleration(item: JsonValue): { ok: true; t: JsonObject } | { ok: false; error: string } {
  if (item === null) return { ok: true, t: {} };
  if (!isJsonObject(item)) {
    return {
      ok: false,
      error: `json: cannot unmarshal ${jsonKind(item)} into Go value of type v1.Toleration`,
    };
  }
  const t: JsonObject = {};
  for (const [field, goType] of stringFields) {
    const v = item[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return { ok: false, error: typeError(v, field, goType) };
    if (v !== '') t[field] = v;
  }
  const secs = item['tolerationSeconds'];
  if (secs !== undefined && secs !== null) {
    if (typeof secs !== 'number' || !Number.isInteger(secs)) {
      return { ok: false, error: typeError(secs, 'tolerationSeconds', 'int64') };
    }
    t['tolerationSeconds'] = secs;
  }
  return { ok: true, t };
}

/** A decoded JSON value as []v1.Toleration (undefined for nil). */
export function tolerationsFromJson(v: JsonValue | undefined): TolerationsResult {
  if (v === undefined || v === null) return { ok: true, tolerations: undefined };
  if (!Array.isArray(v)) {
    return {
      ok: false,
      error: `json: cannot unmarshal ${jsonKind(v)} into Go value of type []v1.Toleration`,
    };
  }
  const out: JsonObject[] = [];
  for (const item of v) {
    const r = toleration(item);
    if (!r.ok) return r;
    out.push(r.t);
  }
  return { ok: true, tolerations: out };
}

/** JSON text as []v1.Toleration; syntax errors carry JSON.parse's text, not Go's. */
export function tolerationsFromText(text: string): TolerationsResult {
  let v: JsonValue;
  try {
    v = JSON.parse(text) as JsonValue;
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  return tolerationsFromJson(v);
}
