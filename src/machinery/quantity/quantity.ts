/**
 * resource.Quantity as k8s.io/apimachinery/pkg/api/resource (v0.27), exact with BigInt: parse,
 * print exactly as kube-apiserver serializes, compare, and read integer values.
 */
import { compareDecimal, scaledInteger } from './decimal.js';
import { parseQuantity } from './parse.js';
import type { Quantity } from './types.js';

export { QuantityParseError, quantityErrors } from './types.js';
export type { Quantity, QuantityFormat } from './types.js';
export { parseQuantity } from './parse.js';
export { canonicalForm, canonicalQuantityString } from './canonical.js';

export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return compareDecimal(a.mantissa, a.exponent, b.mantissa, b.exponent);
}

export function isZeroQuantity(q: Quantity): boolean {
  return q.mantissa === 0n;
}

export function quantitySign(q: Quantity): -1 | 0 | 1 {
  return q.mantissa < 0n ? -1 : q.mantissa > 0n ? 1 : 0;
}

/** Upstream Value(): the value rounded up (away from zero), exact (no int64 overflow). */
export function quantityValue(q: Quantity): bigint {
  return scaledInteger(q.mantissa, q.exponent, 0);
}

/** Upstream MilliValue(): value × 1000 rounded up (away from zero), exact. */
export function quantityMilliValue(q: Quantity): bigint {
  return scaledInteger(q.mantissa, q.exponent, -3);
}

/** Upstream ScaledValue(scale): value / 10^scale rounded up (away from zero). */
export function quantityScaledValue(q: Quantity, scale: number): bigint {
  return scaledInteger(q.mantissa, q.exponent, scale);
}

/**
 * A quantity from a decoded JSON value as upstream UnmarshalJSON reads it: strings trimmed of
 * spaces, numbers by their text (JSON numbers lose their original spelling here: 1e3 reads as
 * 1000), null as undefined. Throws QuantityParseError.
 */
export function parseQuantityJSON(v: unknown): Quantity | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') return parseQuantity(String(v));
  if (typeof v === 'string') return parseQuantity(v.trim());
  throw new TypeError('quantity must be a string or a number');
}
