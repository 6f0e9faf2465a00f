import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.js';
import { ItemExponentialBackoff } from './item-backoff.js';
import { WorkQueue } from './workqueue.js';

/** Retry timers are unref'd (they must not hold a process open): keep the loop alive meanwhile. */
async function keepingAlive<T>(p: Promise<T>): Promise<T> {
  const keepAlive = setInterval(() => {}, 1000);
  try {
    return await p;
  } finally {
    clearInterval(keepAlive);
  }
}

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('WorkQueue', () => {
  it('de-duplicates, re-runs keys added while active, and retries', async () => {
    const q = new WorkQueue();
    const abort = new AbortController();
    const seen: string[] = [];
    let failedOnce = false;
    q.add('a');
    q.add('a');
    q.add('b');
    assert.equal(q.length, 2);
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
    await keepingAlive(done);
    assert.deepEqual(seen, ['a', 'b', 'a', 'b']);
  });

  it('backs off a failing key exponentially, reports each failure, and forgets on success', async () => {
    const q = new WorkQueue({
      backoff: new ItemExponentialBackoff({ baseMs: 2, maxMs: 16 }),
      onError: (err, key) => errors.push(`${key}: ${(err as Error).message}`),
    });
    const errors: string[] = [];
    const abort = new AbortController();
    const at: number[] = [];
    const requeues: number[] = [];
    q.add('k');
    const done = q.run((key) => {
      at.push(performance.now());
      requeues.push(q.numRequeues(key));
      if (at.length <= 6) return Promise.reject(new Error(`failure ${at.length}`));
      abort.abort();
      return Promise.resolve(undefined);
    }, abort.signal);
    await keepingAlive(done);
    assert.equal(errors.length, 6);
    assert.equal(errors[0], 'k: failure 1');
    assert.deepEqual(requeues, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(q.numRequeues('k'), 0); // succeeded: forgotten
    // Delays 2, 4, 8, 16, 16, 16 ms (timers may run late, never early).
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    [2, 4, 8, 16, 16, 16].forEach((min, i) =>
      assert.ok(gaps[i]! >= min - 1, `gap ${i}: ${gaps[i]} < ${min}`),
    );
  });

  it("client-go's default backoff: 5 ms doubling to 1000 s", () => {
    const b = new ItemExponentialBackoff();
    assert.deepEqual(
      Array.from({ length: 5 }, () => b.when('x')),
      [5, 10, 20, 40, 80],
    );
    for (let i = 0; i < 40; i++) b.when('x');
    assert.equal(b.when('x'), 1_000_000);
    assert.equal(b.when('y'), 5);
    b.forget('x');
    assert.equal(b.failures('x'), 0);
    assert.equal(b.when('x'), 5);
  });

  it('leaves no abort listener behind after many retries and idle waits', async () => {
    const q = new WorkQueue({ backoff: new ItemExponentialBackoff({ baseMs: 1, maxMs: 1 }) });
    const abort = new AbortController();
    let runs = 0;
    let idleRounds = 0;
    let listenersWhileRunning = 0;
    const done = q.run((key) => {
      runs++;
      listenersWhileRunning = Math.max(listenersWhileRunning, abortListeners(abort.signal));
      if (key === 'retry' && runs < 300) return Promise.reject(new Error('again')); // retried after 1 ms
      if (key === 'delayed' && runs < 600) return Promise.resolve(1); // 1 ms delayed re-adds
      return Promise.resolve(undefined);
    }, abort.signal);
    q.add('retry');
    await keepingAlive(
      (async () => {
        while (runs < 300) await new Promise((r) => setTimeout(r, 1));
      })(),
    );
    q.add('delayed');
    await keepingAlive(
      (async () => {
        while (runs < 600) await new Promise((r) => setTimeout(r, 2));
      })(),
    );
    // Idle waits: the queue empties, waits, is woken by an add, many times over.
    for (; idleRounds < 300; idleRounds++) {
      q.add(`idle-${idleRounds % 3}`);
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 5));
    assert.ok(runs >= 900, `runs ${runs}`);
    // At most the idle wait and the delayed-keys listener are ever registered at once.
    assert.ok(listenersWhileRunning <= 2, `listeners while running: ${listenersWhileRunning}`);
    assert.equal(abortListeners(abort.signal), 1); // the current idle wait
    abort.abort();
    await done;
    assert.equal(abortListeners(abort.signal), 0);
  });

  it('addAfter keeps the earlier time, and an abort cancels delayed keys and drops the listener', async () => {
    const q = new WorkQueue();
    const abort = new AbortController();
    q.addAfter('k', 10_000, abort.signal);
    q.addAfter('k', 5, abort.signal); // earlier: replaces
    q.addAfter('k', 60_000, abort.signal); // later: ignored
    q.addAfter('other', 60_000, abort.signal);
    assert.equal(abortListeners(abort.signal), 1);
    await keepingAlive(new Promise((r) => setTimeout(r, 30)));
    assert.equal(q.length, 1);
    assert.equal(abortListeners(abort.signal), 1); // 'other' still waits
    abort.abort();
    assert.equal(abortListeners(abort.signal), 0);
    const later = new AbortController();
    q.addAfter('x', 1, later.signal);
    await keepingAlive(new Promise((r) => setTimeout(r, 20)));
    assert.equal(abortListeners(later.signal), 0); // removed when its timer fired
    assert.equal(q.length, 2);
  });

  it('many idle workers on one signal share one abort listener', async () => {
    const q = new WorkQueue();
    const abort = new AbortController();
    const workers = Array.from({ length: 20 }, () => q.run(() => Promise.resolve(undefined), abort.signal));
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(abortListeners(abort.signal), 1);
    q.add('a');
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(abortListeners(abort.signal), 1);
    abort.abort();
    await Promise.all(workers);
    assert.equal(abortListeners(abort.signal), 0);
  });

  describe('on a FakeClock', () => {
    /** Lets queued promise continuations (workers picking keys up) run. */
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await Promise.resolve();
      await new Promise((r) => setImmediate(r));
    };

    it('#7 addAfter adds the key only once the fake clock passes its delay', async () => {
      const clock = new FakeClock(0);
      const q = new WorkQueue({ clock });
      const abort = new AbortController();
      q.addAfter('k', 60_000, abort.signal);
      q.addAfter('k', 30_000, abort.signal); // earlier: replaces
      assert.equal(clock.sleepers, 1);
      await settle();
      assert.equal(q.length, 0); // no real time makes it due
      clock.advance(29_999);
      assert.equal(q.length, 0);
      clock.advance(1);
      assert.equal(q.length, 1);
      assert.equal(clock.sleepers, 0);
      assert.equal(abortListeners(abort.signal), 0);
      q.addAfter('later', 1000, abort.signal);
      abort.abort(); // cancels the fake timer too
      assert.equal(clock.sleepers, 0);
      clock.advance(10_000);
      assert.equal(q.length, 1);
    });

    it('#7 a failing key is retried after its backoff on the fake clock, not before', async () => {
      const clock = new FakeClock(0);
      const q = new WorkQueue({ clock, backoff: new ItemExponentialBackoff({ baseMs: 1000, maxMs: 8000 }) });
      const abort = new AbortController();
      const runs: number[] = [];
      q.add('k');
      const done = q.run((key) => {
        runs.push(clock.now());
        if (runs.length <= 3) return Promise.reject(new Error(`failure of ${key}`));
        return Promise.resolve(undefined);
      }, abort.signal);
      await settle();
      assert.deepEqual(runs, [0]);
      assert.equal(q.numRequeues('k'), 1);
      assert.equal(clock.sleepers, 1); // the retry waits on the fake clock
      await new Promise((r) => setTimeout(r, 20)); // real time passing changes nothing
      assert.deepEqual(runs, [0]);
      clock.advance(999);
      await settle();
      assert.deepEqual(runs, [0]);
      clock.advance(1); // 1 s: first retry
      await settle();
      assert.deepEqual(runs, [0, 1000]);
      clock.advance(1999);
      await settle();
      assert.deepEqual(runs, [0, 1000]);
      clock.advance(1); // 2 s later: second retry
      await settle();
      assert.deepEqual(runs, [0, 1000, 3000]);
      clock.advance(4000); // 4 s later: third retry, which succeeds and is forgotten
      await settle();
      assert.deepEqual(runs, [0, 1000, 3000, 7000]);
      assert.equal(q.numRequeues('k'), 0);
      assert.equal(clock.sleepers, 0);
      abort.abort();
      await done;
    });

    it('#7 addRateLimited and a requeue-after delay from process wait on the fake clock', async () => {
      const clock = new FakeClock(0);
      const q = new WorkQueue({ clock, backoff: new ItemExponentialBackoff({ baseMs: 5, maxMs: 1000 }) });
      const abort = new AbortController();
      const seen: string[] = [];
      const done = q.run((key) => {
        seen.push(`${key}@${clock.now()}`);
        // 'again' asks to be processed once more after 10 s.
        return Promise.resolve(key === 'again' && seen.length === 1 ? 10_000 : undefined);
      }, abort.signal);
      q.add('again');
      await settle();
      assert.deepEqual(seen, ['again@0']);
      q.addRateLimited('limited', abort.signal); // 5 ms
      q.addRateLimited('limited', abort.signal); // 10 ms: the earlier time stays
      assert.equal(q.numRequeues('limited'), 2);
      clock.advance(5);
      await settle();
      assert.deepEqual(seen, ['again@0', 'limited@5']);
      clock.advance(9_990);
      await settle();
      assert.deepEqual(seen, ['again@0', 'limited@5']);
      clock.advance(5);
      await settle();
      assert.deepEqual(seen, ['again@0', 'limited@5', 'again@10000']);
      abort.abort();
      await done;
      assert.equal(clock.sleepers, 0);
    });
  });
});
