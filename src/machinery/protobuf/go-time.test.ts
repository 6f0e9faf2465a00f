import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatGoDuration,
  formatMicroTime,
  formatTime,
  parseGoDuration,
  parseRfc3339,
  zeroTimeSeconds,
} from './go-time.js';

describe('Go time forms on the protobuf wire', () => {
  it('RFC 3339 texts parse to seconds and nanoseconds', () => {
    assert.deepEqual(parseRfc3339('2026-11-30T14:08:55Z'), { seconds: 1796047735, nanos: 0 });
    assert.deepEqual(parseRfc3339('2026-11-30T15:08:55.123456+01:00'), {
      seconds: 1796047735,
      nanos: 123456000,
    });
    assert.deepEqual(parseRfc3339('0001-01-01T00:00:00Z'), { seconds: zeroTimeSeconds, nanos: 0 });
    assert.equal(parseRfc3339('yesterday'), undefined);
  });

  it('metav1.Time writes whole seconds in UTC and null for the zero time', () => {
    assert.equal(formatTime({ seconds: 1796047735, nanos: 999 }), '2026-11-30T14:08:55Z');
    assert.equal(formatTime({ seconds: zeroTimeSeconds, nanos: 0 }), null);
    assert.equal(formatTime({ seconds: 0, nanos: 0 }), '1970-01-01T00:00:00Z');
  });

  it('metav1.MicroTime keeps six fractional digits', () => {
    assert.equal(formatMicroTime({ seconds: 1796047735, nanos: 1500 }), '2026-11-30T14:08:55.000001Z');
    assert.equal(formatMicroTime({ seconds: 1796047735, nanos: 0 }), '2026-11-30T14:08:55.000000Z');
  });

  it('durations format and parse as Go does', () => {
    assert.equal(formatGoDuration(0), '0s');
    assert.equal(formatGoDuration(3600e9), '1h0m0s');
    assert.equal(formatGoDuration(90e9), '1m30s');
    assert.equal(formatGoDuration(1.5e9), '1.5s');
    assert.equal(formatGoDuration(300e6), '300ms');
    assert.equal(formatGoDuration(-2e9), '-2s');
    assert.equal(parseGoDuration('1h30m'), 5400e9);
    assert.equal(parseGoDuration('1.5s'), 1.5e9);
    // Both micro signs Go accepts: U+00B5 and U+03BC.
    assert.equal(parseGoDuration('2\u00b5s'), 2e3);
    assert.equal(parseGoDuration('2\u03bcs1ns'), 2001);
    assert.equal(parseGoDuration('-300ms'), -300e6);
    assert.equal(parseGoDuration('0'), 0);
    assert.equal(parseGoDuration('10'), undefined);
  });
});
