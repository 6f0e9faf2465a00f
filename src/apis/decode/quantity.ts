/**
 * resource.Quantity fields as kube-apiserver stores and prints them: the JSON value (string or
 * number) parsed as upstream's UnmarshalJSON does and re-serialized in canonical form (input text
 * that already is canonical is kept, e.g. `1e3`; `1000m` becomes `1`, `1024Mi` becomes `1Gi`).
 */
import {
  QuantityParseError,
  canonicalQuantityString,
  parseQuantity,
} from '../../machinery/quantity/quantity.js';

/** Parsed texts → canonical text or parse error; quantities repeat a lot across writes. */
const memo = new Map<string, string | QuantityParseError>();
const MEMO_LIMIT = 4096;

/** The canonical text of a quantity given as text, or upstream's parse error. */
export function canonicalQuantityText(text: string): string | QuantityParseError {
  let r = memo.get(text);
  if (r === undefined) {
    try {
      r = canonicalQuantityString(parseQuantity(text));
    } catch (e) {
      if (!(e instanceof QuantityParseError)) throw e;
      r = e;
    }
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, r);
  }
  return r;
}

/**
 * A decoded JSON value of a Quantity field: strings are trimmed, numbers read by their text, any
 * other JSON value is parsed by its JSON text (and so fails as upstream's does).
 */
export function canonicalQuantityJSON(v: unknown): string | QuantityParseError {
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : JSON.stringify(v);
  return canonicalQuantityText(text);
}
