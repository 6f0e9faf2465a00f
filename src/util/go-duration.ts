/** Go's time.ParseDuration (e.g. "1m30s", "250ms"), with its error texts; the result is in milliseconds. */

const units: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export class GoDurationError extends Error {
  override readonly name = 'GoDurationError';
}

export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text);
  const invalid = (): GoDurationError => new GoDurationError(`time: invalid duration ${quoted}`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s.startsWith('-')) sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s);
    const whole = m?.[1] ?? '';
    const frac = m?.[2];
    if (whole === '' && (frac === undefined || frac === '')) throw invalid();
    s = s.slice(m![0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new GoDurationError(`time: missing unit in duration ${quoted}`);
    const scale = units[unit];
    if (scale === undefined) {
      throw new GoDurationError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    }
    s = s.slice(unit.length);
    total += Number(`${whole === '' ? '0' : whole}.${frac ?? ''}0`) * scale;
  }
  if (total * 1e6 > 2 ** 63) throw invalid();
  return sign * total;
}
