import assert from 'node:assert/strict';
import { test } from 'node:test';
import { controllerQueue, informersSynced, runWorkers } from './workers.js';

/** Abort listeners currently on `signal` (counted through add/removeEventListener). */
function counting(signal: AbortSignal): () => number {
  let n = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...a: Parameters<AbortSignal['addEventListener']>) => {
    n++;
    add(...a);
  };
  signal.removeEventListener = (...a: Parameters<AbortSignal['removeEventListener']>) => {
    n--;
    remove(...a);
  };
  return () => n;
}

test('informersSynced: true once all synced, and leaves no abort listener behind', async () => {
  const ac = new AbortController();
  const listeners = counting(ac.signal);
  assert.equal(
    await informersSynced([{ synced: Promise.resolve(true) }, { synced: Promise.resolve(true) }], ac.signal),
    true,
  );
  assert.equal(listeners(), 0);
  assert.equal(
    await informersSynced([{ synced: Promise.resolve(true) }, { synced: Promise.resolve(false) }], ac.signal),
    false,
  );
  assert.equal(listeners(), 0);
});

test('informersSynced: false when the signal aborts first or already has', async () => {
  const ac = new AbortController();
  const never = new Promise<boolean>(() => undefined);
  const waiting = informersSynced([{ synced: never }], ac.signal);
  ac.abort();
  assert.equal(await waiting, false);
  assert.equal(await informersSynced([{ synced: Promise.resolve(true) }], ac.signal), false);
});

test('controllerQueue labels failures with the key and keeps the cause', async () => {
  const errors: unknown[] = [];
  const ac = new AbortController();
  // Stopped once the failure is reported (a failure after stopping is not reported at all).
  const q = controllerQueue('Thing', (err) => {
    errors.push(err);
    ac.abort();
  });
  const cause = new Error('boom');
  q.add('ns/a');
  const running = runWorkers(q, 0, () => Promise.reject(cause), ac.signal);
  await running;
  assert.equal(errors.length, 1);
  const e = errors[0];
  assert.ok(e instanceof Error);
  assert.equal(e.message, 'Thing ns/a: boom');
  assert.equal(e.cause, cause);
});

test('a failure of work cut short by stopping is not reported', async () => {
  const errors: unknown[] = [];
  const q = controllerQueue('Thing', (err) => errors.push(err));
  const ac = new AbortController();
  q.add('ns/a');
  await runWorkers(
    q,
    0,
    () => {
      ac.abort();
      return Promise.reject(new Error('The operation was aborted'));
    },
    ac.signal,
  );
  assert.deepEqual(errors, []);
});

test('runWorkers runs count workers in parallel', async () => {
  const q = controllerQueue('Thing', undefined);
  const ac = new AbortController();
  let active = 0;
  let peak = 0;
  for (const k of ['a', 'b', 'c', 'd']) q.add(k);
  let done = 0;
  await runWorkers(
    q,
    3,
    async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
      if (++done === 4) ac.abort();
      return undefined;
    },
    ac.signal,
  );
  assert.equal(peak, 3);
});
