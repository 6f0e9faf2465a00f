/**
 * labels.ConvertSelectorToLabelsMap (apimachinery v0.27) as PodNodeSelector calls it (no field
 * path options): `k1=v1,k2=v2` into a map, keys and values trimmed and validated. Errors carry
 * Go's texts: `invalid selector: [a b c]` for a term that is not one `=`, and the field errors of
 * a nil path (`<nil>: Invalid value: ...` for a key, `[key]: Invalid value: ...` for a value).
 */
import { fieldErrors } from '../machinery/field/errors.js';
import { isQualifiedName, isValidLabelValue } from '../machinery/validation/names.js';

export type LabelsMapResult =
  | { readonly ok: true; readonly labels: Record<string, string> }
  | { readonly ok: false; readonly error: string };

export function convertSelectorToLabelsMap(selector: string): LabelsMapResult {
  const labels: Record<string, string> = {};
  if (selector === '') return { ok: true, labels };
  for (const term of selector.split(',')) {
    const parts = term.split('=');
    if (parts.length !== 2) return { ok: false, error: `invalid selector: [${parts.join(' ')}]` };
    const key = parts[0]!.trim();
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) {
      return { ok: false, error: fieldErrors.invalid('<nil>', key, keyErrs.join('; ')).toString() };
    }
    const value = parts[1]!.trim();
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) {
      return { ok: false, error: fieldErrors.invalid(`[${key}]`, value, valueErrs.join('; ')).toString() };
    }
    labels[key] = value;
  }
  return { ok: true, labels };
}

/** labels.Conflicts: a key both maps hold with different values. */
export function labelsConflict(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  return Object.keys(a).some((k) => Object.hasOwn(b, k) && b[k] !== a[k]);
}
