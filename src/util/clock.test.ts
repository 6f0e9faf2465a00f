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

test('#7 FakeClock timers fire in time order only when advanced past their time; cancel drops them', () => {
  const c = new FakeClock(0);
  const fired: string[] = [];
  c.after(30, () => fired.push('c'));
  c.after(10, () => fired.push('a'));
  const cancel = c.after(20, () => fired.push('cancelled'));
  c.after(20, () => fired.push('b'));
  assert.equal(c.sleepers, 4);
  assert.equal(c.nextAt(), 10);
  cancel();
  assert.equal(c.sleepers, 3);
  c.advance(9);
  assert.deepEqual(fired, []);
  c.advance(100);
  assert.deepEqual(fired, ['a', 'b', 'c']);
  assert.equal(c.sleepers, 0);
  assert.equal(c.nextAt(), undefined);
  cancel(); // cancelling after the fact is harmless
});

test('#7 FakeClock: a timer already due fires after the caller, not inside after()', async () => {
  const c = new FakeClock(0);
  let fired = 0;
  let cancelRan = false;
  const cancel = c.after(0, () => {
    fired++;
    cancelRan = typeof cancel === 'function';
  });
  assert.equal(fired, 0);
  await Promise.resolve();
  assert.equal(fired, 1);
  assert.equal(cancelRan, true);
  const cancel2 = c.after(-5, () => fired++);
  cancel2();
  await Promise.resolve();
  assert.equal(fired, 1);
});

test('#7 realClock.after fires once and can be cancelled', async () => {
  let fired = 0;
  realClock.after(1, () => fired++);
  const cancel = realClock.after(1, () => fired++);
  cancel();
  const keep = setTimeout(() => undefined, 1000);
  await new Promise((r) => setTimeout(r, 20));
  clearTimeout(keep);
  assert.equal(fired, 1);
});
