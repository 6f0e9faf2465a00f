/**
 * Go `%#v` renderings of the composite values workload validation reports (label maps, label
 * selectors, int-or-string values, strategy structs), so messages read like kube-apiserver's.
 */
import { FieldError, goQuote, omitValue } from '../../../../machinery/field/errors.js';
import type { FieldPath } from '../../../../machinery/field/errors.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';

/** A fixed pointer address (real ones differ per process and cannot match anyway). */
export const fakePointer = '0xc000010000';

/** `map[string]string{"a":"b", "c":"d"}` (keys sorted as fmt does), or `map[string]string(nil)`. */
export function goStringMap(m: JsonValue | undefined): string {
  if (!isJsonObject(m)) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  const parts = keys.map((k) => {
    const v = m[k];
    return `${goQuote(k)}:${goQuote(typeof v === 'string' ? v : '')}`;
  });
  return `map[string]string{${parts.join(', ')}}`;
}

function goStringSliceOrNil(v: JsonValue | undefined): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((x) => goQuote(typeof x === 'string' ? x : '')).join(', ')}}`;
}

function goRequirement(r: JsonObject): string {
  const key = typeof r['key'] === 'string' ? r['key'] : '';
  const op = typeof r['operator'] === 'string' ? r['operator'] : '';
  return `v1.LabelSelectorRequirement{Key:${goQuote(key)}, Operator:${goQuote(op)}, Values:${goStringSliceOrNil(r['values'])}}`;
}

/** `v1.LabelSelector{MatchLabels:..., MatchExpressions:...}` of a (dereferenced) selector. */
export function goLabelSelector(sel: JsonValue | undefined): string {
  if (!isJsonObject(sel)) return '"null"';
  const exprs = sel['matchExpressions'];
  const exprText = Array.isArray(exprs)
    ? `[]v1.LabelSelectorRequirement{${exprs.filter(isJsonObject).map(goRequirement).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel['matchLabels'])}, MatchExpressions:${exprText}}`;
}

/** `intstr.IntOrString{Type:1, IntVal:0, StrVal:"25%"}` (a value, so not printed via String()). */
export function goIntOrString(v: JsonValue | undefined): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  const n = typeof v === 'number' ? v : 0;
  return `intstr.IntOrString{Type:0, IntVal:${n}, StrVal:""}`;
}

/** A strategy struct `pkg.Type{Type:"X", RollingUpdate:(*pkg.Inner)(nil|0x...)}`. */
export function goStrategy(typeName: string, innerName: string, strategy: JsonObject | undefined): string {
  const t = typeof strategy?.['type'] === 'string' ? strategy['type'] : '';
  const inner = isJsonObject(strategy?.['rollingUpdate']) ? fakePointer : 'nil';
  return `${typeName}{Type:${goQuote(t)}, RollingUpdate:(*${innerName})(${inner})}`;
}

/** Invalid whose bad value is pre-rendered Go text: `Invalid value: <rendered>: <detail>`. */
export function invalidGo(path: FieldPath, rendered: string, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, omitValue, `${rendered}: ${detail}`);
}

/** NotSupported whose bad value is pre-rendered Go text. */
export function notSupportedGo(path: FieldPath, rendered: string, valid: readonly string[]): FieldError {
  return new FieldError(
    'FieldValueNotSupported',
    path,
    omitValue,
    `${rendered}: supported values: ${valid.map(goQuote).join(', ')}`,
  );
}
