/**
 * Checks done by upstream's custom JSON unmarshalers of scalar-like types: resource.Quantity,
 * []byte (base64), metav1.Time / MicroTime. Each returns the upstream error text or undefined.
 */

const QUANTITY_FORMAT = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;
const QUANTITY_SUFFIXES = new Set([
  '',
  'Ki',
  'Mi',
  'Gi',
  'Ti',
  'Pi',
  'Ei',
  'n',
  'u',
  'm',
  'k',
  'M',
  'G',
  'T',
  'P',
  'E',
]);
const QUANTITY_EXPONENT = /^[eE][-+]?[0-9]+$/;

export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** resource.ParseQuantity's error for the text, if any. */
export function quantityError(text: string): string | undefined {
  const s = text.trim();
  const m = QUANTITY_FORMAT.exec(s);
  if (s === '' || m === null) return QUANTITY_FORMAT_ERROR;
  if (!QUANTITY_NUMBER.test(m[1]!)) return 'unable to parse numeric part of quantity';
  const suffix = m[2]!;
  if (!QUANTITY_SUFFIXES.has(suffix) && !QUANTITY_EXPONENT.test(suffix))
    return "unable to parse quantity's suffix";
  return undefined;
}

const B64 = /[A-Za-z0-9+/]/;

/** encoding/base64 StdEncoding's error for the text, if any (newlines are ignored, as in Go). */
export function base64Error(text: string): string | undefined {
  let n = 0;
  let pad = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n' || ch === '\r') continue;
    if (ch === '=') {
      if (n % 4 < 2) return `illegal base64 data at input byte ${i}`;
      pad++;
    } else if (pad > 0 || !B64.test(ch)) {
      return `illegal base64 data at input byte ${i}`;
    }
    n++;
  }
  if (n % 4 !== 0) return `illegal base64 data at input byte ${text.length - (n % 4)}`;
  return undefined;
}

const RFC3339 =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})$/;

/** time.Parse's error for metav1.Time (RFC3339) or MicroTime (RFC3339 with microseconds). */
export function timeError(text: string, micro: boolean): string | undefined {
  if (RFC3339.test(text)) {
    const range = timeRangeError(text);
    return range === undefined ? undefined : `parsing time ${JSON.stringify(text)}: ${range} out of range`;
  }
  const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  return `parsing time ${JSON.stringify(text)} as "${layout}": cannot parse ${JSON.stringify(text)} as "2006"`;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The first field of a well-formed RFC 3339 text that time.Parse finds out of range, in its order. */
function timeRangeError(text: string): string | undefined {
  const n = (from: number): number => Number(text.slice(from, from + 2));
  const year = Number(text.slice(0, 4));
  const month = n(5);
  const day = n(8);
  if (month < 1 || month > 12) return 'month';
  if (day > 31) return 'day';
  if (n(11) > 23) return 'hour';
  if (n(14) > 59) return 'minute';
  if (n(17) > 59) return 'second';
  if (day < 1 || day > daysIn(month, year)) return 'day';
  return undefined;
}
