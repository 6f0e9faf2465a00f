/** Conformance: create / update / delete compare-and-swap semantics and revision bookkeeping. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KvCapabilities, OpenKv } from './helpers.js';
import { bytes, text, withKv } from './helpers.js';

export function registerWriteCases(open: OpenKv, capabilities: KvCapabilities = {}): void {
  void it('starts empty at revision 0', () =>
    withKv(open, async (kv) => {
      assert.equal(await kv.currentRevision(), 0);
      assert.equal(await kv.compactedRevision(), 0);
      const r = await kv.range({ key: 'a' });
      assert.deepEqual([r.kvs.length, r.count, r.more, r.revision], [0, 0, false, 0]);
    }));

  void it('create succeeds only when absent and bumps the revision only on success', () =>
    withKv(open, async (kv) => {
      const first = await kv.create('a', bytes('one'));
      assert.ok(first.ok);
      assert.deepEqual(
        [first.kv.key, text(first.kv.value), first.kv.createRevision, first.kv.modRevision],
        ['a', 'one', 1, 1],
      );
      assert.equal(first.kv.lease, 0);
      const again = await kv.create('a', bytes('two'));
      assert.equal(again.ok, false);
      assert.ok(!again.ok);
      assert.equal(text(again.current.value), 'one');
      assert.equal(again.current.modRevision, 1);
      assert.equal(await kv.currentRevision(), 1);
      const b = await kv.create('b', new Uint8Array(0));
      assert.ok(b.ok);
      assert.equal(b.kv.modRevision, 2);
      const read = await kv.range({ key: 'b' });
      assert.equal(read.kvs[0]?.value.length, 0);
    }));

  void it('update compares modRevision and keeps createRevision', () =>
    withKv(open, async (kv) => {
      await kv.create('a', bytes('v1'));
      await kv.create('other', bytes('x'));
      const ok = await kv.update('a', bytes('v2'), 1);
      assert.ok(ok.ok);
      assert.deepEqual([ok.kv.createRevision, ok.kv.modRevision, text(ok.kv.value)], [1, 3, 'v2']);
      assert.deepEqual([ok.prevKv.modRevision, text(ok.prevKv.value)], [1, 'v1']);
      const stale = await kv.update('a', bytes('v3'), 1);
      assert.ok(!stale.ok);
      assert.equal(stale.current?.modRevision, 3);
      assert.equal(text(stale.current.value), 'v2');
      const missing = await kv.update('nope', bytes('v'), 0);
      assert.deepEqual(missing, { ok: false });
      assert.equal(await kv.currentRevision(), 3);
      const got = await kv.range({ key: 'a' });
      assert.deepEqual([got.kvs[0]?.createRevision, got.kvs[0]?.modRevision], [1, 3]);
    }));

  void it('delete with and without an expected modRevision', () =>
    withKv(open, async (kv) => {
      await kv.create('a', bytes('1'));
      await kv.create('b', bytes('2'));
      assert.deepEqual(await kv.delete('missing'), { ok: false });
      const wrong = await kv.delete('a', 2);
      assert.ok(!wrong.ok);
      assert.equal(wrong.current?.modRevision, 1);
      assert.equal(await kv.currentRevision(), 2);
      const right = await kv.delete('a', 1);
      assert.ok(right.ok);
      assert.equal(right.revision, 3);
      assert.deepEqual([right.prevKv.key, text(right.prevKv.value)], ['a', '1']);
      const any = await kv.delete('b');
      assert.ok(any.ok);
      assert.equal(any.revision, 4);
      assert.equal((await kv.range({ key: 'a', end: 'c' })).count, 0);
      assert.deepEqual(await kv.delete('a'), { ok: false });
      assert.equal(await kv.currentRevision(), 4);
    }));

  void it('re-creating a deleted key starts a new incarnation', () =>
    withKv(open, async (kv) => {
      await kv.create('a', bytes('1'));
      await kv.delete('a');
      const again = await kv.create('a', bytes('2'));
      assert.ok(again.ok);
      assert.deepEqual([again.kv.createRevision, again.kv.modRevision], [3, 3]);
      const upd = await kv.update('a', bytes('3'), 3);
      assert.ok(upd.ok);
      assert.deepEqual([upd.kv.createRevision, upd.kv.modRevision], [3, 4]);
    }));

  void it('serializes concurrent writers exactly like one-at-a-time', () =>
    withKv(open, async (kv) => {
      await kv.create('c', bytes('0'));
      const results = await Promise.all([1, 2, 3, 4].map((i) => kv.update('c', bytes(String(i)), 1)));
      assert.equal(results.filter((r) => r.ok).length, 1);
      const creates = await Promise.all([1, 2, 3].map((i) => kv.create('d', bytes(String(i)))));
      if (capabilities.callOrder === false) assert.equal(creates.filter((r) => r.ok).length, 1);
      else
        assert.deepEqual(
          creates.map((r) => r.ok),
          [true, false, false],
        );
      assert.equal(await kv.currentRevision(), 3);
    }));
}
