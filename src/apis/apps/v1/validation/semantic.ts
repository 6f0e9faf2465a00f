/**
 * apimachinery's Semantic.DeepEqual on decoded JSON: absent, null, empty arrays and empty objects
 * compare equal (Go's nil and empty slices/maps), everything else structurally.
 */
import { isJsonObject } from '../../../../util/json.js';
import type { JsonValue } from '../../../../util/json.js';

function isEmptyish(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

export function semanticEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}
