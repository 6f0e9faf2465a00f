/** Go's time.ParseDuration (what `@every <duration>` schedules use), with Go's error texts. */

const unitNanos: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

export class DurationError extends Error {
  override readonly name = 'DurationError';
}

function quote(s: string): string {
  return `"${s}"`;
}

/** Parses a Go duration into nanoseconds (a float; precision beyond 2^53 ns is not needed here). */
export function parseGoDuration(orig: string): number {
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationError(`time: invalid duration ${quote(orig)}`);
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(\.\d*)?/.exec(s);
    const intPart = m?.[1] ?? '';
    const fracPart = m?.[2] ?? '';
    if (intPart === '' && (fracPart === '' || fracPart === '.')) {
      throw new DurationError(`time: invalid duration ${quote(orig)}`);
    }
    s = s.slice(intPart.length + fracPart.length);
    const u = /^[^\d.]*/.exec(s)?.[0] ?? '';
    if (u === '') throw new DurationError(`time: missing unit in duration ${quote(orig)}`);
    const scale = unitNanos[u];
    if (scale === undefined)
      throw new DurationError(`time: unknown unit ${quote(u)} in duration ${quote(orig)}`);
    s = s.slice(u.length);
    const value = Number(`${intPart === '' ? '0' : intPart}${fracPart === '.' ? '' : fracPart}`);
    total += value * scale;
    if (total >= 2 ** 63) throw new DurationError(`time: invalid duration ${quote(orig)}`);
  }
  return neg ? -total : total;
}
