/** Small readers over decoded API objects (JSON), shared by the simulated nodes and the scheduler. */
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';

export function objAt(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isJsonObject(v) ? v : undefined;
}

export function strAt(o: JsonObject | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' ? v : undefined;
}

export function numAt(o: JsonObject | undefined, key: string): number | undefined {
  const v = o?.[key];
  return typeof v === 'number' ? v : undefined;
}

export function arrAt(o: JsonObject | undefined, key: string): readonly JsonValue[] {
  const v = o?.[key];
  return Array.isArray(v) ? v : [];
}

export function objsAt(o: JsonObject | undefined, key: string): JsonObject[] {
  return arrAt(o, key).filter(isJsonObject);
}

export function strsAt(o: JsonObject | undefined, key: string): string[] {
  return arrAt(o, key).filter((v): v is string => typeof v === 'string');
}

/** A string map (labels, annotations, nodeSelector); non-string values are dropped. */
export function stringMap(o: JsonObject | undefined, key: string): Record<string, string> {
  const m = objAt(o, key);
  const out: Record<string, string> = {};
  if (m === undefined) return out;
  for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function metaOf(o: JsonObject): JsonObject {
  return objAt(o, 'metadata') ?? {};
}

/** RFC 3339 with seconds, as metav1.Time serializes. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 3339 with microseconds, as metav1.MicroTime serializes. */
export function rfc3339Micro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
