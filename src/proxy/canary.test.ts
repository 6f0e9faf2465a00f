import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../util/clock.js';
import { canaryChain, monitorCanary } from './canary.js';
import type { CanaryTables } from './canary.js';
import { MemoryTables } from './iptables/memory-tables.js';

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

test('the canary is set up in mangle, nat and filter; a flush is seen within an interval and set up again', async () => {
  const clock = new FakeClock(0);
  const tables = new MemoryTables();
  const abort = new AbortController();
  let flushes = 0;
  const done = monitorCanary({ tables, intervalMs: 1000, clock, onFlushed: () => flushes++ }, abort.signal);
  await settle();
  for (const t of ['mangle', 'nat', 'filter'])
    assert.equal(await tables.chainExists(t, canaryChain), true, t);
  clock.advance(1000);
  await settle();
  clock.advance(1000);
  await settle();
  assert.equal(flushes, 0);
  tables.flush();
  assert.equal(await tables.chainExists('nat', canaryChain), false);
  clock.advance(1000);
  await settle();
  assert.equal(flushes, 1);
  for (const t of ['mangle', 'nat', 'filter'])
    assert.equal(await tables.chainExists(t, canaryChain), true, t);
  abort.abort();
  await done;
});

test('after the first canary goes, the monitor waits (up to 5 s) for the others before reloading', async () => {
  const clock = new FakeClock(0);
  const present = new Map([
    ['mangle', true],
    ['nat', true],
    ['filter', true],
  ]);
  const tables: CanaryTables = {
    ensureChain: (t) => (present.set(t, true), Promise.resolve()),
    chainExists: (t) => Promise.resolve(present.get(t) ?? false),
  };
  const abort = new AbortController();
  let flushes = 0;
  const done = monitorCanary({ tables, intervalMs: 1000, clock, onFlushed: () => flushes++ }, abort.signal);
  await settle();
  present.set('mangle', false);
  clock.advance(1000);
  await settle();
  for (let i = 0; i < 3; i++) {
    clock.advance(100);
    await settle();
  }
  assert.equal(flushes, 0, 'nat and filter still have theirs: a flush in progress');
  present.set('nat', false);
  present.set('filter', false);
  clock.advance(100);
  await settle();
  assert.equal(flushes, 1);
  // A flush that never finishes: reloaded anyway after 5 s.
  present.set('mangle', false);
  clock.advance(1000);
  await settle();
  for (let i = 0; i < 50; i++) {
    clock.advance(100);
    await settle();
  }
  assert.equal(flushes, 2);
  abort.abort();
  await done;
});

test('a canary that cannot be set up is tried again every interval, with the error told', async () => {
  const clock = new FakeClock(0);
  let fail = true;
  const errors: unknown[] = [];
  const tables: CanaryTables = {
    ensureChain: () => (fail ? Promise.reject(new Error('iptables: resource problem')) : Promise.resolve()),
    chainExists: () => Promise.resolve(true),
  };
  const abort = new AbortController();
  const done = monitorCanary(
    { tables, intervalMs: 1000, clock, onFlushed: () => undefined, onError: (e) => errors.push(e) },
    abort.signal,
  );
  await settle();
  assert.equal(errors.length, 1);
  clock.advance(1000);
  await settle();
  assert.equal(errors.length, 2);
  fail = false;
  clock.advance(1000);
  await settle();
  assert.equal(errors.length, 2);
  abort.abort();
  await done;
});
