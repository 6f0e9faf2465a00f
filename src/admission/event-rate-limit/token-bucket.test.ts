import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenBucket } from './token-bucket.js';

test('starts full, refuses when empty, refills at qps up to burst', () => {
  const b = new TokenBucket(2, 3);
  const t = 1_000_000;
  assert.deepEqual(
    [b.tryAccept(t), b.tryAccept(t), b.tryAccept(t), b.tryAccept(t)],
    [true, true, true, false],
  );
  assert.equal(b.tryAccept(t + 499), false);
  assert.equal(b.tryAccept(t + 500), true);
  assert.equal(b.tryAccept(t + 500), false);
  // A long pause refills to burst only.
  const later = t + 60_000;
  assert.deepEqual(
    [b.tryAccept(later), b.tryAccept(later), b.tryAccept(later), b.tryAccept(later)],
    [true, true, true, false],
  );
});

test('a clock going backwards refills nothing', () => {
  const b = new TokenBucket(1, 1);
  assert.equal(b.tryAccept(10_000), true);
  assert.equal(b.tryAccept(5_000), false);
  // The refused request changed nothing: refilling still counts from 10 s.
  assert.equal(b.tryAccept(6_000), false);
  assert.equal(b.tryAccept(10_999), false);
  assert.equal(b.tryAccept(11_000), true);
});
