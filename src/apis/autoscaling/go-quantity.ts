/**
 * Go's `%#v` of a resource.Quantity value, which is how a field error prints a *Quantity bad value
 * (field.Error dereferences pointers, and a Quantity value has no String method), e.g.
 * `resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}`.
 * The parse is replayed on the stored text, so `s` (the cached text) and the int64/inf.Dec choice
 * follow resource.ParseQuantity.
 */
import { goQuote } from '../../machinery/field/errors.js';
import {
  binarySuffixes,
  decimalSuffixes,
  parseQuantity,
  splitQuantityString,
} from '../../machinery/quantity/parse.js';

/** A fixed stand-in for an *inf.Dec pointer (real addresses differ per process anyway). */
const fakePointer = '0xc000010000';

const int64Max = 2n ** 63n - 1n;

/** Whether ParseQuantity keeps `text` in its int64 fast path (else it builds an inf.Dec). */
function usesInt64Amount(text: string): boolean {
  const { num, denom, suffix } = splitQuantityString(text);
  const digits = BigInt(num + denom);
  const binary = binarySuffixes[suffix];
  if (binary !== undefined) {
    if (denom.length > 0) return false;
    const precision = 15 - num.length - Math.trunc((binary * 3) / 10) - 1;
    return precision >= 0 && digits * (1n << BigInt(binary)) <= int64Max;
  }
  const exponent = decimalSuffixes[suffix] ?? Number(suffix.slice(1));
  const precision = 18 - (num.length + denom.length);
  return precision >= 0 && exponent - denom.length >= -9 && digits <= int64Max;
}

/** The `%#v` text of the Quantity parsed from `text` (a valid quantity). */
export function goQuantity(text: string): string {
  const q = parseQuantity(text);
  const cached = goQuote(q.cached ?? '');
  if (text === '0' || usesInt64Amount(text)) {
    return `resource.Quantity{i:resource.int64Amount{value:${q.mantissa}, scale:${q.exponent}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${cached}, Format:"${q.format}"}`;
  }
  return `resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(${fakePointer})}, s:${cached}, Format:"${q.format}"}`;
}
