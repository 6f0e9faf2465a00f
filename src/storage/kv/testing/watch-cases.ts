/** Conformance: watch replay, live delivery, ranges, abort, compaction and close. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KvClosedError, KvCompactedError } from '../errors.js';
import { prefixEnd } from '../types.js';
import type { OpenKv } from './helpers.js';
import { EventReader, bytes, describeEvent, text, withKv } from './helpers.js';

export function registerWatchCases(open: OpenKv): void {
  void it('closes a watcher whose consumer stalls past the queue bound; others keep going', async () => {
    const kv = await open({ watchMaxQueuedEvents: 5 });
    try {
      const stalled = kv.watch({ key: '/', end: prefixEnd('/') })[Symbol.asyncIterator]();
      const healthy = new EventReader(kv.watch({ key: '/', end: prefixEnd('/') }));
      for (let i = 0; i < 8; i++) {
        await kv.create(`/k${i}`, bytes('v'));
        assert.equal(describeEvent((await healthy.take(1))[0]!), `put /k${i}@${i + 1}`);
      }
      // The stalled watcher held more than 5 undelivered events: it ended, holding nothing.
      assert.deepEqual(await stalled.next(), { done: true, value: undefined });
    } finally {
      await kv.close();
    }
  });

  void it('one commit larger than the queue bound does not close a watcher that keeps up', async () => {
    const kv = await open({ watchMaxQueuedEvents: 3 });
    try {
      const reader = new EventReader(kv.watch({ key: '/', end: prefixEnd('/') }));
      const puts = Array.from({ length: 10 }, (_, i) => ({
        type: 'put' as const,
        key: `/t${i}`,
        value: bytes('v'),
      }));
      await kv.txn({ success: puts });
      assert.equal((await reader.take(10)).length, 10);
      await kv.create('/after', bytes('v'));
      assert.equal(describeEvent((await reader.take(1))[0]!), 'put /after@2');
    } finally {
      await kv.close();
    }
  });

  void it('replays history from a past revision with prevKv, then continues live', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1')); // 1
      await kv.create('/b', bytes('1')); // 2
      await kv.update('/a', bytes('2'), 1); // 3
      await kv.delete('/b'); // 4
      const reader = new EventReader(
        kv.watch({ key: '/', end: prefixEnd('/'), startRevision: 2, prevKv: true }),
      );
      const replayed = await reader.take(3);
      assert.deepEqual(replayed.map(describeEvent), [
        'put /b@2',
        'put /a@3 (prev 1)',
        'delete /b@4 (prev 2)',
      ]);
      assert.equal(text(replayed[1]!.kv.value), '2');
      assert.equal(text(replayed[1]!.prevKv!.value), '1');
      assert.equal(replayed[1]!.kv.createRevision, 1);
      assert.equal(replayed[2]!.kv.value.length, 0);
      await kv.delete('/a'); // 5
      await kv.create('/c', bytes('1')); // 6
      const live = await reader.take(2);
      assert.deepEqual(live.map(describeEvent), ['delete /a@5 (prev 3)', 'put /c@6']);
      assert.equal(text(live[0]!.prevKv!.value), '2');
    }));

  void it('has no gaps or duplicates when writes race the start of the watch', () =>
    withKv(open, async (kv) => {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) writes.push(kv.create(`/k${i}`, bytes('x')));
      await new Promise((resolve) => setImmediate(resolve));
      for (let i = 20; i < 40; i++) writes.push(kv.create(`/k${i}`, bytes('x')));
      const reader = new EventReader(kv.watch({ key: '/', end: prefixEnd('/'), startRevision: 1 }));
      for (let i = 40; i < 60; i++) writes.push(kv.create(`/k${i}`, bytes('x')));
      const first = await reader.take(30);
      for (let i = 60; i < 80; i++) writes.push(kv.create(`/k${i}`, bytes('x')));
      await Promise.all(writes);
      const rest = await reader.take(50);
      const revs = [...first, ...rest].map((ev) => ev.kv.modRevision);
      assert.deepEqual(
        revs,
        Array.from({ length: 80 }, (_, i) => i + 1),
      );
      assert.equal(await reader.next(50), 'timeout');
    }));

  void it('without startRevision delivers only later events; prevKv only when asked', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1'));
      const plain = new EventReader(kv.watch({ key: '/a' }));
      const withPrev = new EventReader(kv.watch({ key: '/a', prevKv: true }));
      await kv.update('/a', bytes('2'), 1);
      const [ev] = await plain.take(1);
      assert.equal(describeEvent(ev!), 'put /a@2');
      assert.equal(ev!.prevKv, undefined);
      assert.equal(describeEvent((await withPrev.take(1))[0]!), 'put /a@2 (prev 1)');
    }));

  void it('watches a single key or a range', () =>
    withKv(open, async (kv) => {
      const one = new EventReader(kv.watch({ key: '/x/a' }));
      const range = new EventReader(kv.watch({ key: '/x/', end: prefixEnd('/x/') }));
      for (const key of ['/x/a', '/x/ab', '/x', '/y/a', '/x/b']) await kv.create(key, bytes('1'));
      await kv.delete('/x/a');
      assert.deepEqual((await one.take(2)).map(describeEvent), ['put /x/a@1', 'delete /x/a@6']);
      assert.equal(await one.next(30), 'timeout');
      assert.deepEqual((await range.take(4)).map(describeEvent), [
        'put /x/a@1',
        'put /x/ab@2',
        'put /x/b@5',
        'delete /x/a@6',
      ]);
    }));

  void it('ends the iterator when the signal aborts', () =>
    withKv(open, async (kv) => {
      const ac = new AbortController();
      const reader = new EventReader(kv.watch({ key: '/a', signal: ac.signal }));
      assert.equal(await reader.next(20), 'timeout');
      ac.abort();
      assert.equal(await reader.next(), 'done');
      await kv.create('/a', bytes('1'));
      const early = new EventReader(kv.watch({ key: '/a', startRevision: 1, signal: ac.signal }));
      assert.equal(await early.next(), 'done');
      const events = [];
      const ac2 = new AbortController();
      for await (const ev of kv.watch({ key: '/a', startRevision: 1, signal: ac2.signal })) {
        events.push(ev);
        ac2.abort();
      }
      assert.equal(events.length, 1);
    }));

  void it('refuses to watch from a compacted revision', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1'));
      await kv.update('/a', bytes('2'), 1);
      await kv.create('/b', bytes('1'));
      await kv.compact(2);
      assert.throws(() => kv.watch({ key: '/a', startRevision: 1 }), KvCompactedError);
      assert.throws(() => kv.watch({ key: '/a', startRevision: 2 }), KvCompactedError);
      await kv.update('/a', bytes('3'), 2);
      const reader = new EventReader(
        kv.watch({ key: '/', end: prefixEnd('/'), startRevision: 3, prevKv: true }),
      );
      assert.deepEqual((await reader.take(2)).map(describeEvent), ['put /b@3', 'put /a@4 (prev 2)']);
    }));

  void it('close() ends watches and rejects later calls', async () => {
    const kv = await open();
    const reader = new EventReader(kv.watch({ key: '/a' }));
    const pending = reader.next();
    await kv.create('/a', bytes('1'));
    const ev = await pending;
    assert.ok(ev !== 'done' && ev !== 'timeout');
    const waiting = reader.next();
    await kv.close();
    assert.equal(await waiting, 'done');
    await assert.rejects(kv.create('/b', bytes('1')), KvClosedError);
    await assert.rejects(kv.range({ key: '/a' }), KvClosedError);
    assert.throws(() => kv.watch({ key: '/a' }), KvClosedError);
    await kv.close();
  });
}
