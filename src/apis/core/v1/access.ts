/** Typed getters over decoded JSON objects, so core/v1 code narrows instead of casting. */
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';

export function str(obj: JsonObject | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

export function num(obj: JsonObject | undefined, key: string): number | undefined {
  const v = obj?.[key];
  return typeof v === 'number' ? v : undefined;
}

export function bool(obj: JsonObject | undefined, key: string): boolean | undefined {
  const v = obj?.[key];
  return typeof v === 'boolean' ? v : undefined;
}

export function obj(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isJsonObject(v) ? v : undefined;
}

/** The objects of an array field (non-object items are skipped). */
export function objArr(o: JsonObject | undefined, key: string): JsonObject[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** The array of a field with each item's index kept (for field paths). */
export function indexedObjs(o: JsonObject | undefined, key: string): [number, JsonObject][] {
  const v = o?.[key];
  const out: [number, JsonObject][] = [];
  if (!Array.isArray(v)) return out;
  v.forEach((item, i) => {
    if (isJsonObject(item)) out.push([i, item]);
  });
  return out;
}

export function strArr(o: JsonObject | undefined, key: string): string[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A map of strings (labels, selectors, string data). */
export function strMap(o: JsonObject | undefined, key: string): Record<string, string> | undefined {
  const v = o?.[key];
  if (!isJsonObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** Gets the object at `key`, creating `{}` when absent. */
export function ensureObj(o: JsonObject, key: string): JsonObject {
  const v = o[key];
  if (isJsonObject(v)) return v;
  const created: JsonObject = {};
  o[key] = created;
  return created;
}

/** An int-or-string value: number, string, or undefined when absent. */
export function intOrStr(o: JsonObject | undefined, key: string): number | string | undefined {
  const v: JsonValue | undefined = o?.[key];
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
}

/** Sets `key` to `value` when it is absent (or null). */
export function setDefault(o: JsonObject, key: string, value: JsonValue): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** Sets `key` when absent, null or the empty string (Go's zero value for strings). */
export function setDefaultStr(o: JsonObject, key: string, value: string): void {
  const v = o[key];
  if (v === undefined || v === null || v === '') o[key] = value;
}
