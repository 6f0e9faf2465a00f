/** Exact arithmetic on m × 10^e decimals (BigInt mantissa, number exponent). */

export function digitCount(n: bigint): number {
  return (n < 0n ? -n : n).toString().length;
}

function sign(n: bigint): -1 | 0 | 1 {
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}

/** Compares am×10^ae with bm×10^be without building huge powers of ten. */
export function compareDecimal(am: bigint, ae: number, bm: bigint, be: number): -1 | 0 | 1 {
  const sa = sign(am);
  const sb = sign(bm);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Same sign: compare magnitudes, then flip for negatives.
  const magA = digitCount(am) + ae;
  const magB = digitCount(bm) + be;
  let c: -1 | 0 | 1;
  if (magA !== magB) {
    c = magA < magB ? -1 : 1;
  } else {
    const absA = am < 0n ? -am : am;
    const absB = bm < 0n ? -bm : bm;
    const a = ae > be ? absA * 10n ** BigInt(ae - be) : absA;
    const b = be > ae ? absB * 10n ** BigInt(be - ae) : absB;
    c = a < b ? -1 : a > b ? 1 : 0;
  }
  return sa < 0 ? ((-c || 0) as -1 | 0 | 1) : c;
}

/**
 * m×10^e as an integer count of 10^scale units, rounded away from zero when inexact (upstream's
 * int64Amount.AsScaledInt64 rounding), exact with BigInt.
 */
export function scaledInteger(m: bigint, e: number, scale: number): bigint {
  const shift = e - scale;
  if (m === 0n) return 0n;
  if (shift >= 0) return m * 10n ** BigInt(shift);
  const neg = m < 0n;
  const abs = neg ? -m : m;
  let q: bigint;
  if (-shift > digitCount(abs)) {
    q = 1n;
  } else {
    const d = 10n ** BigInt(-shift);
    q = abs / d;
    if (abs % d !== 0n) q += 1n;
  }
  return neg ? -q : q;
}
