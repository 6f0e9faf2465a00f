/**
 * apimachinery's Semantic.DeepEqual over JSON, and a readable diff of what differs. Go's
 * reflect-based comparison treats a nil slice or map like an empty one; in JSON that is a field
 * absent, null, `[]` or `{}`, so these all compare equal here (an empty struct behind a pointer,
 * which Go tells from nil, is the one case this loses). Quantities compare as written.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';

function isEmpty(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

export function semanticEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return semanticDiff(a, b).length === 0;
}

/**
 * The paths whose values differ, as `-path: old` / `+path: new` lines (upstream prints go-cmp's
 * diff of the Go structs, which has no stable text to match).
 */
export function semanticDiff(a: JsonValue | undefined, b: JsonValue | undefined, path = ''): string[] {
  if (isEmpty(a) && isEmpty(b)) return [];
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => semanticDiff(a[k], b[k], path === '' ? k : `${path}.${k}`));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((x, i) => semanticDiff(x, b[i], `${path}[${i}]`));
  }
  if (!isJsonObject(a) && !Array.isArray(a) && a === b) return [];
  const lines: string[] = [];
  if (!isEmpty(a)) lines.push(`-${path}: ${JSON.stringify(a)}`);
  if (!isEmpty(b)) lines.push(`+${path}: ${JSON.stringify(b)}`);
  return lines;
}
