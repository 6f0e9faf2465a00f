import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../util/clock.js';
import { SyncLimiter } from './sync-limiter.js';

test('two syncs at once (the burst), then one per interval', () => {
  const clock = new FakeClock(0);
  const l = new SyncLimiter(1000, clock);
  assert.equal(l.tryTake(), 0);
  assert.equal(l.tryTake(), 0);
  assert.equal(l.tryTake(), 1000);
  clock.advance(400);
  assert.equal(l.tryTake(), 600);
  clock.advance(600);
  assert.equal(l.tryTake(), 0);
  assert.equal(l.tryTake(), 1000);
  // Idle for long: the bucket holds two again, not more.
  clock.advance(60_000);
  assert.equal(l.tryTake(), 0);
  assert.equal(l.tryTake(), 0);
  assert.equal(l.tryTake(), 1000);
});

test('take() waits on the clock for the next token', async () => {
  const clock = new FakeClock(0);
  const l = new SyncLimiter(500, clock);
  const signal = new AbortController().signal;
  await l.take(signal);
  await l.take(signal);
  let done = false;
  const third = l.take(signal).then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(done, false);
  clock.advance(500);
  await third;
  assert.equal(done, true);
});
