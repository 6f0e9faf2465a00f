/**
 * A decoded JSON value as Go prints it as a field error's bad value: scalars as they are (the
 * field error prints them), composites as `%#v` of interface{} values
 * (`map[string]interface {}{"k":"a"}`, `[]interface {}{1}`), as unstructured content prints.
 */
import { goFloat, goQuote, goRendered } from '../../../machinery/field/errors.js';
import type { JsonValue } from '../../../util/json.js';

/** Go's `%#v` of an interface{} holding the decoded value. */
export function goSharp(v: JsonValue): string {
  if (v === null) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharp).join(', ')}}`;
  const keys = Object.keys(v).sort();
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharp(v[k]!)}`).join(', ')}}`;
}

/** The bad value for a field error: composites pre-rendered as Go prints them. */
export function goBadValue(v: JsonValue): unknown {
  if (v === null || typeof v !== 'object') return v;
  return goRendered(goSharp(v));
}
