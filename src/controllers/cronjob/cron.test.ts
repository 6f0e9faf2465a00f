import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidTimeZone, parseSchedule } from './cron.js';

const at = (s: string): number => Date.parse(s);
const iso = (ms: number | undefined): string => (ms === undefined ? 'none' : new Date(ms).toISOString());

test('five fields: steps, ranges, lists, names (UTC)', () => {
  const every5 = parseSchedule('*/5 * * * *', 'UTC');
  assert.equal(iso(every5.next(at('2026-01-01T00:00:00Z'))), '2026-01-01T00:05:00.000Z');
  assert.equal(iso(every5.next(at('2026-01-01T00:04:59Z'))), '2026-01-01T00:05:00.000Z');
  const workdays = parseSchedule('30 9-17/4 * jan-mar mon-fri', 'UTC');
  // 2026-01-03 is a Saturday.
  assert.equal(iso(workdays.next(at('2026-01-02T17:30:00Z'))), '2026-01-05T09:30:00.000Z');
  assert.equal(iso(workdays.next(at('2026-01-05T09:30:00Z'))), '2026-01-05T13:30:00.000Z');
  const list = parseSchedule('0 0 1,15 * *', 'UTC');
  assert.equal(iso(list.next(at('2026-02-01T00:00:00Z'))), '2026-02-15T00:00:00.000Z');
  // Day-of-month OR day-of-week when neither is a star.
  const either = parseSchedule('0 0 13 * 5', 'UTC');
  assert.equal(iso(either.next(at('2026-01-01T00:00:00Z'))), '2026-01-02T00:00:00.000Z');
  assert.equal(iso(parseSchedule('0 0 30 2 *', 'UTC').next(at('2026-01-01T00:00:00Z'))), 'none');
});

test('descriptors and @every', () => {
  assert.equal(
    iso(parseSchedule('@hourly', 'UTC').next(at('2026-01-01T10:20:00Z'))),
    '2026-01-01T11:00:00.000Z',
  );
  assert.equal(
    iso(parseSchedule('@daily', 'UTC').next(at('2026-01-01T10:20:00Z'))),
    '2026-01-02T00:00:00.000Z',
  );
  assert.equal(
    iso(parseSchedule('@weekly', 'UTC').next(at('2026-01-01T10:20:00Z'))),
    '2026-01-04T00:00:00.000Z',
  );
  assert.equal(
    iso(parseSchedule('@monthly', 'UTC').next(at('2026-01-01T10:20:00Z'))),
    '2026-02-01T00:00:00.000Z',
  );
  assert.equal(
    iso(parseSchedule('@yearly', 'UTC').next(at('2026-01-01T10:20:00Z'))),
    '2027-01-01T00:00:00.000Z',
  );
  assert.equal(
    iso(parseSchedule('@every 1h30m', 'UTC').next(at('2026-01-01T10:20:00.500Z'))),
    '2026-01-01T11:50:00.000Z',
  );
});

test('robfig error messages', () => {
  assert.throws(() => parseSchedule('* * * *', 'UTC'), /expected exactly 5 fields, found 4: \* \* \* \*/);
  assert.throws(() => parseSchedule('61 * * * *', 'UTC'), /end of range \(61\) above maximum \(59\): 61/);
  assert.throws(() => parseSchedule('@fortnightly', 'UTC'), /unrecognized descriptor: @fortnightly/);
  assert.throws(
    () => parseSchedule('5-1 * * * *', 'UTC'),
    /beginning of range \(5\) beyond end of range \(1\)/,
  );
  assert.throws(() => parseSchedule('x * * * *', 'UTC'), /failed to parse int from x/);
  assert.throws(() => parseSchedule('TZ=Mars/Base * * * * *', 'UTC'), /provided bad location Mars\/Base/);
});

test('time zones (AM-10): wall clock of the zone, DST gaps skipped, repeated hours once', () => {
  assert.ok(isValidTimeZone('Europe/Berlin'));
  assert.ok(!isValidTimeZone('Not/AZone'));
  // 09:00 in Tokyo (UTC+9) is 00:00 UTC.
  assert.equal(
    iso(parseSchedule('0 9 * * *', 'Asia/Tokyo').next(at('2026-01-01T01:00:00Z'))),
    '2026-01-02T00:00:00.000Z',
  );
  // The TZ= prefix wins over the default zone.
  assert.equal(
    iso(parseSchedule('TZ=Asia/Tokyo 0 9 * * *', 'UTC').next(at('2026-01-01T01:00:00Z'))),
    '2026-01-02T00:00:00.000Z',
  );
  // New York: 2026-03-08 02:30 does not exist; the next 02:30 is the following day (EDT, UTC-4).
  const ny = parseSchedule('30 2 * * *', 'America/New_York');
  assert.equal(iso(ny.next(at('2026-03-08T05:00:00Z'))), '2026-03-09T06:30:00.000Z');
  // 2026-11-01 01:30 happens twice; it fires at the first (EDT, 05:30Z), then the next day (EST).
  const fall = parseSchedule('30 1 * * *', 'America/New_York');
  assert.equal(iso(fall.next(at('2026-11-01T04:00:00Z'))), '2026-11-01T05:30:00.000Z');
  assert.equal(iso(fall.next(at('2026-11-01T05:30:00Z'))), '2026-11-02T06:30:00.000Z');
  // Kathmandu is UTC+5:45.
  assert.equal(
    iso(parseSchedule('0 0 * * *', 'Asia/Kathmandu').next(at('2026-01-01T00:00:00Z'))),
    '2026-01-01T18:15:00.000Z',
  );
});
