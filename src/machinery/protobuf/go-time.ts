/**
 * Go's wire forms of time: metav1.Time / MicroTime as a Timestamp (seconds since the epoch and
 * nanoseconds) and time.Duration as nanoseconds, converted to and from their JSON texts.
 */

/** Seconds of Go's zero time.Time (0001-01-01T00:00:00Z): what a zero metav1.Time encodes as. */
export const zeroTimeSeconds = -62135596800;

export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

/** An RFC 3339 text as seconds and nanoseconds; undefined when it does not parse. */
export function parseRfc3339(text: string): Timestamp | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1]!}${m[3]!.toUpperCase()}`);
  if (!Number.isFinite(ms)) return undefined;
  const nanos = m[2] === undefined ? 0 : Number(m[2].slice(1, 10).padEnd(9, '0'));
  return { seconds: Math.floor(ms / 1000), nanos };
}

function utc(seconds: number): string | undefined {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return undefined;
  return d.toISOString().slice(0, 19);
}

/** metav1.Time's JSON: RFC 3339 in UTC to the second, `null` for the zero time. */
export function formatTime(ts: Timestamp): string | null {
  if (ts.seconds === zeroTimeSeconds && ts.nanos === 0) return null;
  const text = utc(ts.seconds);
  return text === undefined ? null : `${text}Z`;
}

/** metav1.MicroTime's JSON: RFC 3339 in UTC with six fractional digits, `null` for zero. */
export function formatMicroTime(ts: Timestamp): string | null {
  if (ts.seconds === zeroTimeSeconds && ts.nanos === 0) return null;
  const text = utc(ts.seconds);
  if (text === undefined) return null;
  return `${text}.${String(Math.floor(ts.nanos / 1000)).padStart(6, '0')}Z`;
}

const units: readonly (readonly [string, number])[] = [
  ['h', 3600e9],
  ['m', 60e9],
  ['s', 1e9],
];

/** Go's time.Duration.String() of a number of nanoseconds (e.g. "1h0m0s", "1.5s", "300ms"). */
export function formatGoDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  let n = Math.abs(nanos);
  if (n < 1e9) {
    const [unit, size] = n < 1e3 ? ['ns', 1] : n < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${sign}${trimFraction(n / size)}${unit}`;
  }
  let out = '';
  for (const [unit, size] of units) {
    if (unit === 's') {
      out += `${trimFraction(n / size)}s`;
      break;
    }
    const whole = Math.floor(n / size);
    if (whole > 0 || out !== '') out += `${whole}${unit}`;
    n -= whole * size;
  }
  return sign + out;
}

function trimFraction(v: number): string {
  return String(Number(v.toFixed(9)));
}

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's time.ParseDuration, in nanoseconds; undefined when the text is not a duration. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$/.exec(text);
  if (m === null) return undefined;
  let total = 0;
  for (const part of text
    .slice(m[1]!.length)
    .matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g)) {
    total += Number(part[1]) * durationUnits[part[2]!]!;
  }
  return m[1] === '-' ? -Math.round(total) : Math.round(total);
}
