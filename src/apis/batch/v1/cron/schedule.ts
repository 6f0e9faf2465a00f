/**
 * Cron schedule parsing as github.com/robfig/cron/v3 ParseStandard (what CronJob validation calls):
 * five fields or a descriptor (`@hourly`, `@every 1h`...), an optional `TZ=`/`CRON_TZ=` prefix,
 * with the library's exact error texts. Only validity is computed, not the schedule itself.
 */
import { DurationError, parseGoDuration } from './duration.js';
import { loadLocationError } from './timezone.js';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const months = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const days = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** second, minute, hour, day of month, month, day of week. */
const fieldBounds: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

const descriptors = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);

class CronError extends Error {}

/** Go's `%s` of a []string: `[a b c]`. */
function goList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

/** strconv.Atoi with its error text. */
function atoi(s: string): number {
  const quoted = JSON.stringify(s);
  if (!/^[+-]?\d+$/.test(s)) throw new CronError(`strconv.Atoi: parsing ${quoted}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) || Math.abs(n) >= 2 ** 63) {
    throw new CronError(`strconv.Atoi: parsing ${quoted}: value out of range`);
  }
  return n;
}

function mustParseInt(expr: string): number {
  let num: number;
  try {
    num = atoi(expr);
  } catch (e) {
    throw new CronError(`failed to parse int from ${expr}: ${(e as Error).message}`);
  }
  if (num < 0) throw new CronError(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseIntOrName(expr: string, b: Bounds): number {
  const named = b.names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const low = lowAndHigh[0] ?? '';
  let start: number;
  let end: number;
  if (low === '*' || low === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseIntOrName(low, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', b);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? '');
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) {
    throw new CronError(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function checkField(field: string, b: Bounds): void {
  for (const expr of field.split(',')) if (expr !== '') checkRange(expr, b);
}

function checkDescriptor(spec: string): void {
  if (descriptors.has(spec)) return;
  const every = '@every ';
  if (spec.startsWith(every)) {
    try {
      parseGoDuration(spec.slice(every.length));
    } catch (e) {
      if (e instanceof DurationError) throw new CronError(`failed to parse duration ${spec}: ${e.message}`);
      throw e;
    }
    return;
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** Go's strings.Fields: split on runs of Unicode white space. */
function fields(s: string): string[] {
  return s.split(/\s+/u).filter((f) => f !== '');
}

/** The error ParseStandard reports for `spec`, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    parseStandard(spec);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}

function parseStandard(input: string): void {
  if (input.length === 0) throw new CronError('empty spec string');
  let spec = input;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    // Upstream slices up to the space; without one the library fails (a panic there).
    const name = space < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, space);
    const locErr = loadLocationError(name);
    if (locErr !== undefined || space < 0) {
      throw new CronError(`provided bad location ${name}: ${locErr ?? `unknown time zone ${name}`}`);
    }
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    checkDescriptor(spec);
    return;
  }
  const f = fields(spec);
  if (f.length !== 5) throw new CronError(`expected exactly 5 fields, found ${f.length}: ${goList(f)}`);
  const all = ['0', ...f];
  all.forEach((field, i) => checkField(field, fieldBounds[i]!));
}
