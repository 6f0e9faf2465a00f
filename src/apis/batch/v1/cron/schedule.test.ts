import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGoDuration } from './duration.js';
import { cronScheduleError } from './schedule.js';
import { loadLocationError } from './timezone.js';

test('valid schedules', () => {
  for (const s of [
    '*/5 * * * *',
    '0 0 1 jan,JUL sun-sat',
    '@hourly',
    '@every 1h30m',
    '15 10 ? * MON-FRI',
    '0 0 * * 1/2',
    'TZ=Europe/Berlin 0 0 * * *',
  ]) {
    assert.equal(cronScheduleError(s), undefined, s);
  }
});

test('robfig/cron error texts', () => {
  assert.equal(cronScheduleError('* * * *'), 'expected exactly 5 fields, found 4: [* * * *]');
  assert.equal(cronScheduleError('60 * * * *'), 'end of range (60) above maximum (59): 60');
  assert.equal(cronScheduleError('* * 0 * *'), 'beginning of range (0) below minimum (1): 0');
  assert.equal(cronScheduleError('5-2 * * * *'), 'beginning of range (5) beyond end of range (2): 5-2');
  assert.equal(cronScheduleError('*/0 * * * *'), 'step of range should be a positive number: */0');
  assert.equal(
    cronScheduleError('x * * * *'),
    'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
  );
  assert.equal(cronScheduleError('1-2-3 * * * *'), 'too many hyphens: 1-2-3');
  assert.equal(cronScheduleError('@often'), 'unrecognized descriptor: @often');
  assert.equal(
    cronScheduleError('@every 5'),
    'failed to parse duration @every 5: time: missing unit in duration "5"',
  );
  assert.equal(
    cronScheduleError('@every 5x'),
    'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"',
  );
  assert.equal(
    cronScheduleError('TZ=Mars/Base * * * * *'),
    'provided bad location Mars/Base: unknown time zone Mars/Base',
  );
  assert.equal(cronScheduleError(''), 'empty spec string');
});

test('Go durations', () => {
  assert.equal(parseGoDuration('1h30m'), 5400e9);
  assert.equal(parseGoDuration('1.5s'), 1.5e9);
  assert.throws(() => parseGoDuration('.s'), /time: invalid duration "\.s"/);
});

test('time zone lookup', () => {
  assert.equal(loadLocationError('America/New_York'), undefined);
  assert.equal(loadLocationError('Etc/UTC'), undefined);
  assert.equal(loadLocationError('US/Eastern'), undefined);
  assert.equal(loadLocationError('UTC'), undefined);
  assert.equal(loadLocationError('Mars/Base'), 'unknown time zone Mars/Base');
  assert.equal(loadLocationError('america/new_york'), 'unknown time zone america/new_york');
  assert.equal(loadLocationError('+05:00'), 'unknown time zone +05:00');
});
