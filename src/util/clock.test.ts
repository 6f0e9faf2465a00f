import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock, realClock } from './clock.js';

test('FakeClock wakes sleepers only when advanced past their time', async () => {
  const c = new FakeClock(1000);
  const abort = new AbortController();
  let woke = 0;
  const p = c.sleep(50, abort.signal).then(() => woke++);
  assert.equal(c.sleepers, 1);
  c.advance(49);
  await Promise.resolve();
  assert.equal(woke, 0);
  c.advance(1);
  await p;
  assert.equal(woke, 1);
  assert.equal(c.now(), 1050);
  assert.equal(c.sleepers, 0);
});

test('sleeps end early on abort, for both clocks', async () => {
  const c = new FakeClock();
  const abort = new AbortController();
  const p = c.sleep(1e9, abort.signal);
  const q = realClock.sleep(1e9, abort.signal);
  abort.abort();
  await Promise.all([p, q]);
  assert.equal(c.sleepers, 0);
});
