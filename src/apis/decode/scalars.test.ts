import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timeError } from './scalars.js';

describe('timeError', () => {
  it('accepts valid RFC 3339 times, including a leap day', () => {
    assert.equal(timeError('2024-02-29T23:59:59Z', false), undefined);
    assert.equal(timeError('2020-01-02T03:04:05.123456+02:00', true), undefined);
  });

  it('reports the first out-of-range field like time.Parse', () => {
    assert.equal(
      timeError('2020-13-45T99:99:99Z', true),
      'parsing time "2020-13-45T99:99:99Z": month out of range',
    );
    assert.equal(
      timeError('2020-01-45T10:00:00Z', false),
      'parsing time "2020-01-45T10:00:00Z": day out of range',
    );
    assert.equal(
      timeError('2020-01-01T24:00:00Z', false),
      'parsing time "2020-01-01T24:00:00Z": hour out of range',
    );
    assert.equal(
      timeError('2020-01-01T00:60:00Z', false),
      'parsing time "2020-01-01T00:60:00Z": minute out of range',
    );
    assert.equal(
      timeError('2020-01-01T00:00:60Z', false),
      'parsing time "2020-01-01T00:00:60Z": second out of range',
    );
    assert.equal(
      timeError('2023-02-29T00:00:00Z', false),
      'parsing time "2023-02-29T00:00:00Z": day out of range',
    );
  });
});
