/**
 * Cron schedules as the v1.27 CronJob controller reads them (robfig/cron/v3 `ParseStandard`): five
 * fields (minute hour day-of-month month day-of-week) with lists, ranges, steps, `*` and `?`,
 * month and weekday names; the descriptors @yearly/@annually, @monthly, @weekly, @daily/@midnight,
 * @hourly and `@every <duration>`; an optional `TZ=<zone>` / `CRON_TZ=<zone>` prefix. `next(t)` is
 * the first activation strictly after `t`, computed on the wall clock of the schedule's IANA time
 * zone (through Intl, no time-zone database of our own): a wall time a DST jump skips does not
 * fire that day, a wall time that repeats fires at its first occurrence.
 */

/** A parsed schedule. */
export interface CronSchedule {
  /** The first activation strictly after `afterMs` (ms since the epoch); undefined if none within 5 years. */
  next(afterMs: number): number | undefined;
}

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const minutes: Bounds = { min: 0, max: 59 };
const hours: Bounds = { min: 0, max: 23 };
const dom: Bounds = { min: 1, max: 31 };
const months: Bounds = {
  min: 1,
  max: 12,
  names: {
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
  },
};
const dow: Bounds = {
  min: 0,
  max: 6,
  names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 },
};

interface Field {
  readonly bits: readonly boolean[];
  /** The field was `*` or `?` (a step of 1 keeps it): robfig's star bit. */
  readonly star: boolean;
}

function parseInt10(s: string, expr: string): number {
  if (!/^[+-]?\d+$/.test(s))
    throw new Error(`failed to parse int from ${s}: strconv.Atoi: parsing "${s}": invalid syntax`);
  const n = Number(s);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseValue(s: string, b: Bounds, expr: string): number {
  const named = b.names?.[s.toLowerCase()];
  return named ?? parseInt10(s, expr);
}

/** robfig getRange for one comma-separated part. */
function parseRange(expr: string, b: Bounds, bits: boolean[]): boolean {
  const rangeAndStep = expr.split('/');
  if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
  const lowAndHigh = rangeAndStep[0]!.split('-');
  if (lowAndHigh.length > 2) throw new Error(`too many hyphens: ${expr}`);
  let star = false;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
    star = true;
  } else {
    start = parseValue(lowAndHigh[0]!, b, expr);
    end = lowAndHigh.length === 2 ? parseValue(lowAndHigh[1]!, b, expr) : start;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInt10(rangeAndStep[1]!, expr);
    // "N/step" means N-max/step.
    if (lowAndHigh.length === 1 && !star) end = b.max;
    if (step > 1) star = false;
  }
  if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  for (let i = start; i <= end; i += step) bits[i] = true;
  return star;
}

function parseField(field: string, b: Bounds): Field {
  const bits: boolean[] = new Array<boolean>(b.max + 1).fill(false);
  let star = false;
  for (const part of field.split(',')) star = parseRange(part, b, bits) || star;
  return { bits, star };
}

/** Go's time.ParseDuration for the units a schedule uses (h, m, s, ms). */
function parseDuration(s: string): number {
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    const n = Number(m[1]);
    total += n * ({ h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const)[m[2] as 'h' | 'm' | 's' | 'ms'];
    matched = re.lastIndex;
  }
  if (s === '' || matched !== s.length)
    throw new Error(`failed to parse duration ${s}: time: invalid duration "${s}"`);
  return total;
}

const descriptors: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Whether `tz` names an IANA time zone this runtime knows (time.LoadLocation's role). */
export function isValidTimeZone(tz: string): boolean {
  if (tz === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The time zone of this process (Go's time.Local). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall clock of `instant` in `tz`, as a "naive" UTC millisecond count (seconds precision). */
export function wallClock(instant: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const y = parts['year'] ?? 1970;
  return Date.UTC(
    y,
    (parts['month'] ?? 1) - 1,
    parts['day'] ?? 1,
    parts['hour'] ?? 0,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  );
}

/** The instants whose wall clock in `tz` is `naive` (none in a DST gap, two in a repeated hour). */
function instantsOf(naive: number, tz: string): number[] {
  const out = new Set<number>();
  for (const probe of [naive - 14 * 3_600_000, naive, naive + 14 * 3_600_000]) {
    const offset = wallClock(probe, tz) - probe;
    const candidate = naive - offset;
    if (wallClock(candidate, tz) === naive) out.add(candidate);
  }
  return [...out].sort((a, b) => a - b);
}

class SpecSchedule implements CronSchedule {
  readonly #minute: Field;
  readonly #hour: Field;
  readonly #dom: Field;
  readonly #month: Field;
  readonly #dow: Field;
  readonly #tz: string;

  constructor(fields: readonly string[], tz: string) {
    this.#minute = parseField(fields[0]!, minutes);
    this.#hour = parseField(fields[1]!, hours);
    this.#dom = parseField(fields[2]!, dom);
    this.#month = parseField(fields[3]!, months);
    this.#dow = parseField(fields[4]!, dow);
    this.#tz = tz;
  }

  #dayMatches(d: Date): boolean {
    const domMatch = this.#dom.bits[d.getUTCDate()] === true;
    const dowMatch = this.#dow.bits[d.getUTCDay()] === true;
    if (this.#dom.star || this.#dow.star) return domMatch && dowMatch;
    return domMatch || dowMatch;
  }

  next(afterMs: number): number | undefined {
    // Start at the next whole wall-clock minute.
    let naive = Math.floor(wallClock(afterMs, this.#tz) / 60_000) * 60_000 + 60_000;
    const limit = naive + 5 * 366 * 86_400_000;
    while (naive <= limit) {
      const d = new Date(naive);
      const y = d.getUTCFullYear();
      const mo = d.getUTCMonth();
      const day = d.getUTCDate();
      const h = d.getUTCHours();
      if (this.#month.bits[mo + 1] !== true) {
        naive = Date.UTC(y, mo + 1, 1);
        continue;
      }
      if (!this.#dayMatches(d)) {
        naive = Date.UTC(y, mo, day + 1);
        continue;
      }
      if (this.#hour.bits[h] !== true) {
        naive = Date.UTC(y, mo, day, h + 1);
        continue;
      }
      if (this.#minute.bits[d.getUTCMinutes()] !== true) {
        naive += 60_000;
        continue;
      }
      const at = instantsOf(naive, this.#tz).find((t) => t > afterMs);
      if (at !== undefined) return at;
      naive += 60_000;
    }
    return undefined;
  }
}

class EverySchedule implements CronSchedule {
  readonly #delay: number;
  constructor(delay: number) {
    this.#delay = Math.max(1000, Math.floor(delay / 1000) * 1000);
  }
  next(afterMs: number): number {
    return afterMs + this.#delay - (afterMs % 1000);
  }
}

/** robfig's ParseStandard; throws with its messages. `timeZone` is the zone when none is prefixed. */
export function parseSchedule(spec: string, timeZone: string = localTimeZone()): CronSchedule {
  let s = spec.trim();
  if (s === '') throw new Error('empty spec string');
  let tz = timeZone;
  const prefix = /^(?:CRON_)?TZ=(\S*)/.exec(s);
  if (prefix !== null) {
    tz = prefix[1]!;
    if (!isValidTimeZone(tz)) throw new Error(`provided bad location ${tz}: unknown time zone ${tz}`);
    s = s.slice(prefix[0].length).trim();
  }
  if (s.startsWith('@')) {
    if (s.startsWith('@every ')) return new EverySchedule(parseDuration(s.slice('@every '.length).trim()));
    const expanded = descriptors[s];
    if (expanded === undefined) throw new Error(`unrecognized descriptor: ${s}`);
    s = expanded;
  }
  const fields = s.split(/\s+/);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${s}`);
  return new SpecSchedule(fields, tz);
}
