import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGoDuration } from './go-duration.js';

test('parseGoDuration reads Go durations and fails with Go texts', () => {
  assert.equal(parseGoDuration('30s'), 30_000);
  assert.equal(parseGoDuration('1m30s'), 90_000);
  assert.equal(parseGoDuration('1.5h'), 5_400_000);
  assert.equal(parseGoDuration('250ms'), 250);
  assert.equal(parseGoDuration('0'), 0);
  assert.equal(parseGoDuration('-2s'), -2000);
  assert.throws(() => parseGoDuration('invalid'), { message: 'time: invalid duration "invalid"' });
  assert.throws(() => parseGoDuration('10'), { message: 'time: missing unit in duration "10"' });
  assert.throws(() => parseGoDuration('3x'), { message: 'time: unknown unit "x" in duration "3x"' });
  assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
});
