/** Conformance: leases attach keys that disappear (with delete events) on revoke or expiry. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KvLeaseNotFoundError } from '../errors.js';
import { prefixEnd } from '../types.js';
import type { OpenKv } from './helpers.js';
import { EventReader, bytes, describeEvent, sleep, withKv } from './helpers.js';

export function registerLeaseCases(open: OpenKv): void {
  void it('revoking a lease deletes its keys with delete events, all at one revision', () =>
    withKv(open, async (kv) => {
      const lease = await kv.grantLease(60);
      assert.equal(lease.ttlSeconds, 60);
      const other = await kv.grantLease(60);
      assert.notEqual(lease.id, other.id);
      const reader = new EventReader(kv.watch({ key: '/', end: prefixEnd('/'), prevKv: true }));
      const a = await kv.create('/a', bytes('1'), { lease: lease.id });
      assert.ok(a.ok);
      assert.equal(a.kv.lease, lease.id);
      await kv.create('/b', bytes('1'), { lease: lease.id });
      await kv.create('/c', bytes('1'), { lease: lease.id });
      await kv.create('/d', bytes('1'));
      const detached = await kv.update('/c', bytes('2'), 3);
      assert.ok(detached.ok);
      assert.equal(detached.kv.lease, 0);
      await reader.take(5);
      await kv.revokeLease(lease.id);
      assert.deepEqual((await reader.take(2)).map(describeEvent), [
        'delete /a@6 (prev 1)',
        'delete /b@6 (prev 2)',
      ]);
      const left = await kv.range({ key: '/', end: prefixEnd('/') });
      assert.deepEqual(
        left.kvs.map((k) => k.key),
        ['/c', '/d'],
      );
      await assert.rejects(kv.revokeLease(lease.id), KvLeaseNotFoundError);
      await assert.rejects(kv.keepAliveLease(lease.id), KvLeaseNotFoundError);
      await assert.rejects(kv.create('/e', bytes('1'), { lease: lease.id }), KvLeaseNotFoundError);
      assert.equal(await kv.currentRevision(), 6);
      const bare = await kv.grantLease(60);
      await kv.revokeLease(bare.id); // no keys: no revision
      assert.equal(await kv.currentRevision(), 6);
      assert.equal(await reader.next(30), 'timeout');
    }));

  void it('expired leases delete their keys; keepAlive extends a lease', () =>
    withKv(open, async (kv) => {
      const short = await kv.grantLease(1);
      const kept = await kv.grantLease(1);
      await kv.create('/short', bytes('1'), { lease: short.id });
      await kv.create('/kept', bytes('1'), { lease: kept.id });
      const reader = new EventReader(kv.watch({ key: '/', end: prefixEnd('/') }));
      await sleep(600);
      await kv.keepAliveLease(kept.id);
      const ev = await reader.next(1500);
      assert.ok(ev !== 'done' && ev !== 'timeout', 'the short lease should have expired');
      assert.equal(describeEvent(ev), 'delete /short@3');
      assert.equal((await kv.range({ key: '/kept' })).count, 1);
      await kv.revokeLease(kept.id);
      assert.deepEqual((await reader.take(1)).map(describeEvent), ['delete /kept@4']);
    }));
}
