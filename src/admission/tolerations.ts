/**
 * Toleration set algebra of upstream pkg/util/tolerations (v1.27), on v1 JSON tolerations:
 * whether one toleration tolerates a superset of another, merging two lists keeping only the
 * supersets, and checking a list against a whitelist. Missing string fields read as Go's "";
 * a missing or null tolerationSeconds as nil.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';

interface Fields {
  readonly key: string;
  readonly operator: string;
  readonly value: string;
  readonly effect: string;
  readonly seconds: number | undefined;
}

function fields(t: JsonObject): Fields {
  const s = (k: string): string => (typeof t[k] === 'string' ? t[k] : '');
  const secs = t['tolerationSeconds'];
  return {
    key: s('key'),
    operator: s('operator'),
    value: s('value'),
    effect: s('effect'),
    seconds: typeof secs === 'number' ? secs : undefined,
  };
}

/** apiequality.Semantic.DeepEqual of two tolerations. */
export function tolerationsEqual(a: JsonObject, b: JsonObject): boolean {
  const x = fields(a);
  const y = fields(b);
  return (
    x.key === y.key &&
    x.operator === y.operator &&
    x.value === y.value &&
    x.effect === y.effect &&
    x.seconds === y.seconds
  );
}

/** Whether `ss` tolerates a superset of what `t` tolerates. */
export function isSuperset(ss: JsonObject, t: JsonObject): boolean {
  if (tolerationsEqual(ss, t)) return true;
  const s = fields(ss);
  const x = fields(t);
  // An empty key with operator Exists matches every key and value.
  if (x.key !== s.key && (s.key !== '' || s.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (x.effect !== s.effect && s.effect !== '') return false;
  if (s.effect === 'NoExecute' && s.seconds !== undefined) {
    if (x.seconds === undefined || x.seconds > s.seconds) return false;
  }
  switch (s.operator) {
    case 'Equal':
    case '':
      return x.operator === 'Equal' && x.value === s.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** The JSON objects of a tolerations field (other items are skipped). */
export function tolerationList(v: JsonValue | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/**
 * MergeTolerations: `first` then `second`, dropping any toleration another one of the result
 * (or a later, different one) is a superset of; of equal ones the first is kept.
 */
export function mergeTolerations(first: readonly JsonObject[], second: readonly JsonObject[]): JsonObject[] {
  const all = [...first, ...second];
  const merged: JsonObject[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((later) => !tolerationsEqual(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}

/** VerifyAgainstWhitelist: every toleration is covered by some whitelisted one. */
export function verifyAgainstWhitelist(
  tolerations: readonly JsonObject[],
  whitelist: readonly JsonObject[],
): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}
