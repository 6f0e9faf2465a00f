import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, parseTimestamp, shortHumanDuration, translateTimestampSince } from './age.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [-3 * s, '<invalid>'],
    [-2 * s, '<invalid>'],
    [-1500, '0s'],
    [-1 * s, '0s'],
    [0, '0s'],
    [999, '0s'],
    [5 * s, '5s'],
    [90 * s, '90s'],
    [119 * s, '119s'],
    [120 * s, '2m'],
    [123 * s, '2m3s'],
    [3 * m, '3m'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [125 * m, '125m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 5 * m, '3h5m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [26 * h, '26h'],
    [47 * h, '47h'],
    [48 * h, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [400 * d, '400d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [735 * d, '2y5d'],
    [8 * 365 * d, '8y'],
    [10 * 365 * d + 100 * d, '10y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms -> ${want}`, () => assert.equal(humanDuration(ms), want));
  }
});

describe('shortHumanDuration', () => {
  it('uses one unit', () => {
    assert.equal(shortHumanDuration(-5 * s), '<invalid>');
    assert.equal(shortHumanDuration(-1 * s), '0s');
    assert.equal(shortHumanDuration(59 * s), '59s');
    assert.equal(shortHumanDuration(90 * s), '1m');
    assert.equal(shortHumanDuration(125 * m), '2h');
    assert.equal(shortHumanDuration(26 * h), '1d');
    assert.equal(shortHumanDuration(400 * d), '1y');
  });
});

describe('translateTimestampSince', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  it('formats the age of a timestamp', () => {
    assert.equal(translateTimestampSince('2024-05-01T11:56:57Z', now), '3m3s');
    assert.equal(translateTimestampSince('2024-04-30T10:00:00Z', now), '26h');
    assert.equal(translateTimestampSince('2024-05-01T11:59:59.500000Z', now), '0s');
  });
  it('is <unknown> for unset timestamps', () => {
    assert.equal(translateTimestampSince(undefined, now), '<unknown>');
    assert.equal(translateTimestampSince(null, now), '<unknown>');
    assert.equal(translateTimestampSince('', now), '<unknown>');
    assert.equal(translateTimestampSince('0001-01-01T00:00:00Z', now), '<unknown>');
    assert.equal(parseTimestamp('garbage'), undefined);
  });
  it('is <invalid> for timestamps well in the future', () => {
    assert.equal(translateTimestampSince('2024-05-01T12:00:10Z', now), '<invalid>');
  });
});
