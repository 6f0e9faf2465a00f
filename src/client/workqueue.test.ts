import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkQueue } from './workqueue.js';

test('WorkQueue de-duplicates, re-runs keys added while active, and retries', async () => {
  const q = new WorkQueue();
  const abort = new AbortController();
  const seen: string[] = [];
  let failedOnce = false;
  q.add('a');
  q.add('a');
  q.add('b');
  const done = q.run((key) => {
    seen.push(key);
    if (key === 'a' && seen.length === 1) q.add('a'); // added while active: runs again after
    if (key === 'b' && !failedOnce) {
      failedOnce = true;
      return Promise.resolve(10); // retry shortly
    }
    if (seen.length >= 4) abort.abort();
    return Promise.resolve(undefined);
  }, abort.signal);
  // Retry timers are unref'd (they must not hold a process open): keep the loop alive here.
  const keepAlive = setInterval(() => {}, 1000);
  await done;
  clearInterval(keepAlive);
  assert.deepEqual(seen, ['a', 'b', 'a', 'b']);
});
