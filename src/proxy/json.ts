/** Reading the fields of decoded Services, EndpointSlices and Nodes (untyped JSON) safely. */
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';

export function obj(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

export function objs(v: JsonValue | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

export function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

export function strs(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function num(v: JsonValue | undefined): number {
  return typeof v === 'number' ? v : 0;
}

export function stringMap(v: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v))) if (typeof x === 'string') out[k] = x;
  return out;
}
