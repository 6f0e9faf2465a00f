/** Reading decoded API objects (JSON) without casts: metadata, typed fields, owner references. */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

export function obj(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

export function meta(o: JsonObject): JsonObject {
  return obj(o['metadata']);
}

export function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: JsonValue | undefined, dflt = 0): number {
  return typeof v === 'number' ? v : dflt;
}

export function arr(v: JsonValue | undefined): JsonValue[] {
  return Array.isArray(v) ? v : [];
}

export function name(o: JsonObject): string {
  return str(meta(o)['name']);
}

export function namespace(o: JsonObject): string {
  return str(meta(o)['namespace']);
}

export function uid(o: JsonObject): string {
  return str(meta(o)['uid']);
}

export function generation(o: JsonObject): number {
  return num(meta(o)['generation']);
}

export function deleting(o: JsonObject): boolean {
  const ts = meta(o)['deletionTimestamp'];
  return ts !== undefined && ts !== null;
}

export function stringMap(v: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

export function labels(o: JsonObject): Record<string, string> {
  return stringMap(meta(o)['labels']);
}

export function annotations(o: JsonObject): Record<string, string> {
  return stringMap(meta(o)['annotations']);
}

export interface OwnerRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** metav1.GetControllerOf: the owner reference with `controller: true`. */
export function controllerOf(o: JsonObject): OwnerRef | undefined {
  for (const r of arr(meta(o)['ownerReferences'])) {
    if (isJsonObject(r) && r['controller'] === true) {
      return {
        apiVersion: str(r['apiVersion']),
        kind: str(r['kind']),
        name: str(r['name']),
        uid: str(r['uid']),
        controller: true,
      };
    }
  }
  return undefined;
}

/** metav1.NewControllerRef. */
export function newControllerRef(owner: JsonObject, apiVersion: string, kind: string): OwnerRef {
  return { apiVersion, kind, name: name(owner), uid: uid(owner), controller: true, blockOwnerDeletion: true };
}

/** Milliseconds since the epoch of an RFC 3339 timestamp; undefined when absent or unparsable. */
export function timeOf(v: JsonValue | undefined): number | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The message of an error, for conditions and logs (an API error's Status message). */
export function errorMessage(err: unknown): string {
  if (isJsonObject(err) && typeof err['message'] === 'string') return err['message'];
  if (err instanceof Error) {
    const status: unknown = Reflect.get(err, 'status');
    if (isJsonObject(status) && typeof status['message'] === 'string') return status['message'];
    return err.message;
  }
  return String(err);
}

/** `err` as an Error (rejections are Errors in practice; anything else is wrapped). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(errorMessage(err));
}
