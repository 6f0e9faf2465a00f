/** Printing as upstream Quantity.String() / CanonicalizeBytes (v0.27). */
import { compareDecimal } from './decimal.js';
import type { Quantity } from './types.js';

const decimalSuffixByExponent = new Map<number, string>([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);
const binarySuffixByPower = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** The exact integer value, when the quantity is one. */
function asInteger(q: Quantity): bigint | undefined {
  if (q.exponent >= 0) return q.mantissa * 10n ** BigInt(q.exponent);
  const d = 10n ** BigInt(-q.exponent);
  return q.mantissa % d === 0n ? q.mantissa / d : undefined;
}

/** Mantissa and exponent with the exponent a multiple of 3 and no spare trailing zeros. */
function engineering(q: Quantity): [bigint, number] {
  let m = q.mantissa;
  let e = q.exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (e % 3 !== 0) {
    m *= 10n;
    e--;
  }
  return [m, e];
}

/** The canonical text (ignoring any kept input text). */
export function canonicalForm(q: Quantity): string {
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  let integer: bigint | undefined;
  if (format === 'BinarySI') {
    if (
      compareDecimal(q.mantissa, q.exponent, -1024n, 0) > 0 &&
      compareDecimal(q.mantissa, q.exponent, 1024n, 0) < 0
    ) {
      format = 'DecimalSI';
    } else {
      integer = asInteger(q);
      if (integer === undefined) format = 'DecimalSI';
    }
  }
  if (format === 'BinarySI' && integer !== undefined) {
    let n = integer;
    let power = 0;
    while (n % 1024n === 0n) {
      n /= 1024n;
      power++;
    }
    return `${n}${binarySuffixByPower[power] ?? ''}`;
  }
  const [m, e] = engineering(q);
  if (format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
  // Upstream prints no suffix when the exponent is outside its table.
  return `${m}${decimalSuffixByExponent.get(e) ?? ''}`;
}

/** What upstream serializes: the kept input text when there is one, else the canonical form. */
export function canonicalQuantityString(q: Quantity): string {
  return q.cached ?? canonicalForm(q);
}
