/** Reading the JSON of stored objects by path, with Go's zero values for what is absent. */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

/** The value at `path` below `value`, or undefined when some step is absent or not an object. */
export function at(value: JsonValue | undefined, ...path: readonly string[]): JsonValue | undefined {
  let v = value;
  for (const key of path) {
    if (!isJsonObject(v)) return undefined;
    v = v[key];
  }
  return v;
}

/** The string at `path`, '' when absent (a Go string field's zero value). */
export function stringAt(value: JsonValue | undefined, ...path: readonly string[]): string {
  const v = at(value, ...path);
  return typeof v === 'string' ? v : '';
}

/** The objects of the array at `path` (non-objects skipped), [] when absent. */
export function objectsAt(value: JsonValue | undefined, ...path: readonly string[]): JsonObject[] {
  const v = at(value, ...path);
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** True when `path` holds something other than null (a Go pointer or slice field that is set). */
export function isSet(value: JsonValue | undefined, ...path: readonly string[]): boolean {
  const v = at(value, ...path);
  return v !== undefined && v !== null;
}
