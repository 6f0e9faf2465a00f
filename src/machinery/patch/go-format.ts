/** Go `%v` / reflect type-name rendering of decoded JSON values, for upstream-identical messages. */
import type { JsonValue } from '../../util/json.js';

function formatNumber(n: number): string {
  // Integers decode as int64 upstream and print plainly.
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp >= -4 && exp < 6) return String(n);
  // float64 %v switches to exponent form with a signed, at least two-digit exponent: 1.5e+06.
  return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
}

/** What fmt.Sprintf("%v", v) prints for a value decoded by encoding/json (maps print sorted). */
export function goFormat(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map((x) => goFormat(x)).join(' ')}]`;
  const keys = Object.keys(v).sort();
  return `map[${keys.map((k) => `${k}:${goFormat(v[k])}`).join(' ')}]`;
}

/** reflect.TypeOf(v).String() for a decoded JSON value (integers decode as int64 upstream). */
export function goTypeName(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
