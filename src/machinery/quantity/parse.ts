/**
 * Parsing as upstream resource.ParseQuantity (v0.27): the same lexical split, suffix table, nano
 * rounding (up, away from zero), BinarySI cap at the int64 maximum, and the rule for when the
 * input text is kept verbatim as the serialized form.
 */
import { QuantityParseError, quantityErrors } from './types.js';
import type { Quantity, QuantityFormat } from './types.js';
import { compareDecimal, digitCount } from './decimal.js';

interface Split {
  readonly positive: boolean;
  readonly value: string;
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const suffixChars = 'eEinumkKMGTP';

/** Upstream parseQuantityString, step for step. */
export function splitQuantityString(str: string): Split {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') {
      pos++;
    }
  }
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str[i] !== '0') break;
    pos++;
  }
  let num = '';
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
    if (!isDigit(str[i])) {
      num = str.slice(pos, i);
      pos = i;
      break;
    }
  }
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    for (let i = pos; ; i++) {
      if (i >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
      if (!isDigit(str[i])) {
        denom = str.slice(pos, i);
        pos = i;
        break;
      }
    }
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
    if (!suffixChars.includes(str[i]!)) {
      pos = i;
      break;
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
    if (!isDigit(str[i])) break;
  }
  throw new QuantityParseError(quantityErrors.formatWrong);
}

interface Interpreted {
  readonly base: 2 | 10;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

/** Exponents of ten of the decimal SI suffixes. */
export const decimalSuffixes: Readonly<Record<string, number>> = {
  '': 0,
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
/** Exponents of two of the binary SI suffixes. */
export const binarySuffixes: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};

function interpretSuffix(s: string): Interpreted | undefined {
  if (Object.hasOwn(decimalSuffixes, s))
    return { base: 10, exponent: decimalSuffixes[s]!, format: 'DecimalSI' };
  if (Object.hasOwn(binarySuffixes, s)) return { base: 2, exponent: binarySuffixes[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'E' || s[0] === 'e')) {
    const rest = s.slice(1);
    if (!/^[+-]?[0-9]+$/.test(rest)) return undefined;
    const n = BigInt(rest);
    if (n < -(2n ** 63n) || n >= 2n ** 63n) return undefined;
    // Upstream keeps the int64 as int32 (wrapping).
    return { base: 10, exponent: Number(BigInt.asIntN(32, n)), format: 'DecimalExponent' };
  }
  return undefined;
}

const int64Max = 2n ** 63n - 1n;

/** ceil(u / 10^k) for u > 0, k > 0, without building 10^k when it dwarfs u. */
function ceilShift(u: bigint, k: number): bigint {
  if (k > digitCount(u)) return 1n;
  const d = 10n ** BigInt(k);
  const q = u / d;
  return u % d === 0n ? q : q + 1n;
}

export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityParseError(quantityErrors.formatWrong);
  if (str === '0') return { mantissa: 0n, exponent: 0, format: 'DecimalSI', cached: str };
  const { positive, value, num, denom, suffix } = splitQuantityString(str);
  const interp = interpretSuffix(suffix);
  if (interp === undefined) throw new QuantityParseError(quantityErrors.suffix);
  const { base, exponent } = interp;
  let format = interp.format;

  let precision: number;
  let scale = 0;
  let multiplier = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      multiplier = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }

  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const v = BigInt(shifted);
      const product = v * multiplier;
      if (product <= int64Max) {
        const result = positive ? product : -product;
        const q: Quantity = { mantissa: result, exponent: scale, format };
        const keep =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (v & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return keep ? { ...q, cached: str } : q;
      }
    }
  }

  // Arbitrary-precision path (upstream inf.Dec).
  if (!/[0-9]/.test(value)) throw new QuantityParseError(quantityErrors.numeric);
  let unscaled = BigInt(num + denom);
  let exp = -denom.length;
  if (base === 10) exp += exponent;
  else unscaled *= 1n << BigInt(exponent);
  if (unscaled !== 0n && exp < -9) {
    unscaled = ceilShift(unscaled, -9 - exp);
    exp = -9;
  }
  if (format === 'BinarySI' && compareDecimal(unscaled, exp, int64Max, 0) > 0) {
    unscaled = int64Max;
    exp = 0;
  }
  if (format === 'BinarySI' && unscaled > 0n && exp < 0 && digitCount(unscaled) <= -exp) format = 'DecimalSI';
  return { mantissa: positive ? unscaled : -unscaled, exponent: exp, format };
}
