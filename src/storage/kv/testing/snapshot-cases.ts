/**
 * Conformance: a snapshot is the whole keyspace at one revision; restoring it puts every key back
 * with its revisions, moves the store's revision past both, compacts everything before, and ends
 * the watches open at that moment with a compaction error.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KvCompactedError } from '../errors.js';
import { prefixEnd } from '../types.js';
import type { OpenKv } from './helpers.js';
import { bytes, text, withKv } from './helpers.js';

export function registerSnapshotCases(open: OpenKv): void {
  void it('restores keys with their revisions and moves the revision past both', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('a1'));
      await kv.create('/b', bytes('b1'));
      await kv.update('/a', bytes('a2'), 1);
      const snap = await kv.snapshot();
      assert.equal(snap.revision, 3);
      // Values are as stored (a store that encrypts at rest snapshots ciphertext): only the keys
      // and revisions are compared here, the values after the restore.
      assert.deepEqual(
        snap.kvs.map((k) => `${k.key} c${k.createRevision} m${k.modRevision}`),
        ['/a c1 m3', '/b c2 m2'],
      );
      // Later changes: a new key, a deleted one, an update.
      await kv.create('/c', bytes('c1'));
      await kv.delete('/b');
      await kv.update('/a', bytes('a3'), 3);
      assert.equal(await kv.restore(snap), 7);
      assert.equal(await kv.currentRevision(), 7);
      assert.equal(await kv.compactedRevision(), 7);
      const all = await kv.range({ key: '/', end: prefixEnd('/') });
      assert.equal(all.revision, 7);
      assert.deepEqual(
        all.kvs.map((k) => `${k.key}=${text(k.value)} c${k.createRevision} m${k.modRevision}`),
        ['/a=a2 c1 m3', '/b=b1 c2 m2'],
      );
      // Reads of older revisions are compacted away; writes go on after the restore's revision.
      await assert.rejects(kv.range({ key: '/a', revision: 5 }), KvCompactedError);
      const swapped = await kv.update('/a', bytes('a4'), 3);
      assert.ok(swapped.ok);
      assert.equal(swapped.kv.modRevision, 8);
      assert.ok((await kv.create('/c', bytes('c2'))).ok, '/c does not exist after the restore');
    }));

  void it('ends the watches open across a restore with a compaction error', () =>
    withKv(open, async (kv) => {
      await kv.create('/a', bytes('1'));
      const snap = await kv.snapshot();
      const watch = kv.watch({ key: '/', end: prefixEnd('/') })[Symbol.asyncIterator]();
      const pending = watch.next();
      await kv.restore(snap);
      await assert.rejects(pending, KvCompactedError);
      // A watch from before the restore cannot start again; one from its revision on can.
      assert.throws(() => kv.watch({ key: '/', end: prefixEnd('/'), startRevision: 2 }), KvCompactedError);
      const after = kv.watch({ key: '/', end: prefixEnd('/'), startRevision: 3 })[Symbol.asyncIterator]();
      await kv.create('/b', bytes('1'));
      const ev = await after.next();
      assert.equal(ev.done, false);
      assert.equal(ev.value?.kv.key, '/b');
      await after.return?.();
    }));

  void it('restores leases with the time they had left', () =>
    withKv(open, async (kv) => {
      const lease = await kv.grantLease(600);
      await kv.create('/leased', bytes('1'), { lease: lease.id });
      const snap = await kv.snapshot();
      assert.equal(snap.leases.length, 1);
      assert.ok(snap.leases[0]!.remainingMs > 590_000);
      await kv.revokeLease(lease.id);
      assert.equal((await kv.range({ key: '/leased' })).kvs.length, 0);
      await kv.restore(snap);
      assert.equal((await kv.range({ key: '/leased' })).kvs[0]?.lease, lease.id);
      // The lease is live again: revoking it deletes its key.
      await kv.revokeLease(lease.id);
      assert.equal((await kv.range({ key: '/leased' })).kvs.length, 0);
      // New leases do not reuse restored ids.
      await kv.restore(snap);
      assert.notEqual((await kv.grantLease(10)).id, lease.id);
    }));
}
