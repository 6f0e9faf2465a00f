/**
 * Defensive readers for plain-JSON API objects. Missing or mistyped fields read as Go's zero
 * values ("" for strings, 0 for numbers, empty lists and maps), which is what the upstream
 * printers see after decoding.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

/** The value at `path` inside `v`, or undefined when any step is missing or not an object. */
export function valueAt(v: unknown, ...path: string[]): unknown {
  let cur: unknown = v;
  for (const key of path) {
    if (!isJsonObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** The object at `path`, or undefined (Go: a nil pointer to a struct). */
export function objectAt(v: unknown, ...path: string[]): JsonObject | undefined {
  const x = valueAt(v, ...path);
  return isJsonObject(x) ? x : undefined;
}

export function stringAt(v: unknown, ...path: string[]): string {
  const x = valueAt(v, ...path);
  return typeof x === 'string' ? x : '';
}

/** The string at `path`, or undefined when absent (Go: a nil *string). */
export function optionalStringAt(v: unknown, ...path: string[]): string | undefined {
  const x = valueAt(v, ...path);
  return typeof x === 'string' ? x : undefined;
}

export function numberAt(v: unknown, ...path: string[]): number {
  const x = valueAt(v, ...path);
  return typeof x === 'number' && Number.isFinite(x) ? x : 0;
}

/** The number at `path`, or undefined when absent (Go: a nil *int32). */
export function optionalNumberAt(v: unknown, ...path: string[]): number | undefined {
  const x = valueAt(v, ...path);
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

export function booleanAt(v: unknown, ...path: string[]): boolean {
  return valueAt(v, ...path) === true;
}

/** The boolean at `path`, or undefined when absent (Go: a nil *bool). */
export function optionalBooleanAt(v: unknown, ...path: string[]): boolean | undefined {
  const x = valueAt(v, ...path);
  return typeof x === 'boolean' ? x : undefined;
}

export function arrayAt(v: unknown, ...path: string[]): readonly unknown[] {
  const x = valueAt(v, ...path);
  return Array.isArray(x) ? x : [];
}

/** The string-valued entries of the map at `path` (labels, selectors, data). */
export function stringMapAt(v: unknown, ...path: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const x = valueAt(v, ...path);
  if (!isJsonObject(x)) return out;
  for (const [k, val] of Object.entries(x)) if (typeof val === 'string') out.set(k, val);
  return out;
}

/** How many keys the map at `path` has (Go: len(map)). */
export function mapSizeAt(v: unknown, ...path: string[]): number {
  const x = valueAt(v, ...path);
  return isJsonObject(x) ? Object.keys(x).length : 0;
}

/** Byte-order string comparison, as Go's sort.Strings does for ASCII data. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
