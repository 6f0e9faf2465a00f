// Type conversions where cel-go v0.12.7 (common/types: string.go, double.go, duration.go,
// timestamp.go, bytes.go ConvertToType) differs from @bufbuild/cel: strings parse as Go's strconv
// (ParseInt/ParseUint base 10, ParseFloat, ParseBool) and time.ParseDuration, and values print as
// Go does (fmt %g for doubles, seconds with FormatFloat 'f' for durations, RFC3339Nano in UTC for
// timestamps). Failures carry cel-go's "type conversion error from 'string' to 'int'".
import { celFunc, celUint, CelScalar, objectType, type CelFunc, type CelValue } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { secondsNanos } from './values.js';

const { STRING, INT, UINT, DOUBLE, BOOL, BYTES } = CelScalar;
const DURATION = objectType(DurationSchema);
const TIMESTAMP = objectType(TimestampSchema);

function conversionError(to: string): Error {
  return new Error(`type conversion error from 'string' to '${to}'`);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseInt(s, 10, 64). */
export function goParseInt(s: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(s)) throw conversionError('int');
  const n = BigInt(s);
  if (n < INT64_MIN || n > INT64_MAX) throw conversionError('int');
  return n;
}

/** strconv.ParseUint(s, 10, 64): no sign. */
export function goParseUint(s: string): bigint {
  if (!/^[0-9]+$/.test(s)) throw conversionError('uint');
  const n = BigInt(s);
  if (n > UINT64_MAX) throw conversionError('uint');
  return n;
}

/** strconv.ParseFloat(s, 64) for decimal forms, inf/infinity and nan; out of range is an error. */
export function goParseFloat(s: string): number {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) {
    throw conversionError('double');
  }
  const n = Number(s);
  if (!Number.isFinite(n)) throw conversionError('double');
  return n;
}

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** fmt's %g for a float64: shortest digits, exponent form below 1e-4 and from 1e+06. */
export function goFormatG(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, e] = x.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(x);
}

/** Seconds and a 9-digit fraction, trailing zeros trimmed. */
function decimalSeconds(seconds: bigint, nanos: number): string {
  const negative = seconds < 0n || nanos < 0;
  const s = seconds < 0n ? -seconds : seconds;
  const n = Math.abs(nanos);
  const fraction = n === 0 ? '' : `.${String(n).padStart(9, '0').replace(/0+$/, '')}`;
  return `${negative ? '-' : ''}${s}${fraction}`;
}

/** time.Time.Format(time.RFC3339Nano) in UTC. */
export function rfc3339Nano(seconds: bigint, nanos: number): string {
  const d = new Date(Number(seconds) * 1000); // years 1-9999 print with 4 digits below
  const pad = (v: number, w = 2) => String(v).padStart(w, '0');
  const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction}Z`
  );
}

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** time.ParseDuration → nanoseconds; int64 range. */
export function goParseDuration(s: string): bigint {
  const fail = () => conversionError('google.protobuf.Duration');
  let rest = s;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') throw fail();
  let total = 0n;
  const re = /^([0-9]*)(?:\.([0-9]*))?(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/;
  while (rest !== '') {
    const m = re.exec(rest);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw fail();
    const unit = UNITS[m[3]!]!;
    const whole = BigInt(m[1] === '' ? '0' : m[1]!);
    const frac = m[2] ?? '';
    let value = whole * unit;
    if (frac !== '') {
      const scale = 10n ** BigInt(frac.length);
      value += (BigInt(frac) * unit) / scale;
    }
    total += value;
    if (total > INT64_MAX) throw fail();
    rest = rest.slice(m[0].length);
  }
  return negative ? -total : total;
}

function durationValue(nanos: bigint) {
  const seconds = nanos / 1_000_000_000n;
  return create(DurationSchema, { seconds, nanos: Number(nanos % 1_000_000_000n) });
}

/** time.Parse(time.RFC3339, s), within CEL's timestamp range. */
export function goParseRfc3339(s: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  if (!m) throw conversionError('google.protobuf.Timestamp');
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  const check = new Date(0);
  check.setUTCFullYear(Number(y), month - 1, day);
  check.setUTCHours(Number(h), Number(mi), Number(sec), 0);
  const base = check.getTime();
  if (
    check.getUTCMonth() + 1 !== month ||
    check.getUTCDate() !== day ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(sec) > 59
  ) {
    throw conversionError('google.protobuf.Timestamp');
  }
  let offset = 0;
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offset = sign * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
  }
  const seconds = BigInt(Math.floor(base / 1000) - offset);
  if (seconds < -62135596800n || seconds > 253402300799n) throw new Error('timestamp overflow');
  const nanos = frac === undefined ? 0 : Number(frac.padEnd(9, '0'));
  return create(TimestampSchema, { seconds, nanos });
}

function describeTime(v: CelValue): string {
  const t = secondsNanos(v);
  if (t === undefined) throw new Error('no such overload');
  return t.type === 'google.protobuf.Duration'
    ? `${decimalSeconds(t.seconds, t.nanos)}s`
    : rfc3339Nano(t.seconds, t.nanos);
}

export const conversionsLibrary: readonly CelFunc[] = [
  celFunc('int', [STRING], INT, (s) => goParseInt(s)),
  celFunc('uint', [STRING], UINT, (s) => celUint(goParseUint(s))),
  celFunc('double', [STRING], DOUBLE, (s) => goParseFloat(s)),
  celFunc('bool', [STRING], BOOL, (s) => {
    if (GO_TRUE.has(s)) return true;
    if (GO_FALSE.has(s)) return false;
    throw conversionError('bool');
  }),
  celFunc('string', [DOUBLE], STRING, (x) => goFormatG(x)),
  celFunc('string', [DURATION], STRING, (d) => describeTime(d)),
  celFunc('string', [TIMESTAMP], STRING, (t) => describeTime(t)),
  celFunc('string', [BYTES], STRING, (b) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(b);
    } catch {
      throw new Error('invalid UTF-8 in bytes, cannot convert to string');
    }
  }),
  celFunc('duration', [STRING], DURATION, (s) => durationValue(goParseDuration(s))),
  celFunc('timestamp', [STRING], TIMESTAMP, (s) => goParseRfc3339(s)),
];
