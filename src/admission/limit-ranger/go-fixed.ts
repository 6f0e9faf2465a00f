/**
 * Go's `%f` (strconv.FormatFloat(x, 'f', 6, 64)): six decimals, rounded half to even on the
 * double's exact value. Number.prototype.toFixed differs only on exact ties (it rounds them up),
 * e.g. 129/128 = 1.0078125 prints 1.007812 in Go and 1.007813 with toFixed.
 */
const scale = 1_000_000n;

export function goFixed6(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // |x| = mantissa × 2^exponent exactly.
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  let n: bigint;
  if (exponent >= 0) {
    n = (mantissa << BigInt(exponent)) * scale;
  } else {
    const numerator = mantissa * scale;
    const denominator = 1n << BigInt(-exponent);
    n = numerator / denominator;
    const twice = (numerator - n * denominator) * 2n;
    if (twice > denominator || (twice === denominator && (n & 1n) === 1n)) n += 1n;
  }
  const digits = n.toString().padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}
