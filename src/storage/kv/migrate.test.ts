/**
 * `nanokube storage migrate`'s copy (AM-13): into a store that restores, every revision is kept;
 * into etcd, which numbers writes itself, every key arrives in the order of its modRevision with
 * distinct revisions; keys on leases get a lease that ends when theirs would; a target that holds
 * anything, and a key with no place in etcd, are refused before anything is written.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createMemoryKv } from './memory/memory-kv.js';
import { MigrationError, migrateKv } from './migrate.js';
import { bytes, text } from './testing/helpers.js';
import { prefixEnd } from './types.js';
import type { KvStore } from './types.js';
import { EtcdClient } from './etcd/client.js';
import { EtcdKv } from './etcd/etcd-kv.js';
import { EtcdCluster, etcdSkip } from './etcd/testing/etcd-cluster.js';

/** A store with history: keys written out of key order, one rewritten, one deleted, two on a lease. */
async function source(): Promise<KvStore> {
  const kv = createMemoryKv({});
  await kv.create('/registry/pods/ns/b', bytes('b1'));
  await kv.create('/registry/pods/ns/a', bytes('a1'));
  const c = await kv.create('/registry/configmaps/ns/c', bytes('c1'));
  assert.ok(c.ok);
  await kv.create('/registry/pods/ns/gone', bytes('x'));
  await kv.delete('/registry/pods/ns/gone');
  await kv.update('/registry/configmaps/ns/c', bytes('c2'), c.kv.modRevision);
  const lease = await kv.grantLease(3600);
  await kv.create('/registry/events/ns/e1', bytes('e1'), { lease: lease.id });
  await kv.create('/registry/events/ns/e2', bytes('e2'), { lease: lease.id });
  return kv;
}

async function all(kv: KvStore): Promise<{ key: string; value: string; mod: number; lease: number }[]> {
  const r = await kv.range({ key: '/registry', end: prefixEnd('/registry') });
  return r.kvs.map((k) => ({ key: k.key, value: text(k.value), mod: k.modRevision, lease: k.lease }));
}

const byRevision = <T extends { mod: number }>(xs: T[]): T[] => [...xs].sort((a, b) => a.mod - b.mod);

describe('storage migrate', () => {
  it('into a store that restores: every key with its revisions and its lease', async () => {
    const from = await source();
    const to = createMemoryKv({});
    const r = await migrateKv(from, to);
    assert.equal(r.revisionsKept, true);
    assert.deepEqual([r.keys, r.leases], [5, 1]);
    assert.deepEqual(await all(to), await all(from));
    await Promise.all([from.close(), to.close()]);
  });

  it('refuses a target that holds a key, writing nothing', async () => {
    const from = await source();
    const to = createMemoryKv({});
    await to.create('/registry/namespaces/default', bytes('{}'));
    const before = await to.currentRevision();
    await assert.rejects(migrateKv(from, to), (err: unknown) => {
      assert.ok(err instanceof MigrationError);
      assert.match(err.message, /the target already holds keys/);
      return true;
    });
    assert.equal(await to.currentRevision(), before);
    await Promise.all([from.close(), to.close()]);
  });

  if (etcdSkip !== false) {
    it('into and out of etcd', { skip: etcdSkip }, () => undefined);
    return;
  }

  let cluster: EtcdCluster | undefined;
  after(() => cluster?.stop());
  const openEtcd = async (remote: string): Promise<EtcdKv> => {
    cluster ??= await EtcdCluster.start(1);
    const client = await EtcdClient.open({ endpoints: cluster.endpoints });
    const kv = new EtcdKv({ client, prefix: { local: '/registry', remote } });
    await kv.currentRevision();
    return kv;
  };

  it('into etcd: the same keys and values, in modRevision order with distinct revisions; out again exactly', async () => {
    const from = await source();
    const etcd = await openEtcd('/migrated');
    const r = await migrateKv(from, etcd);
    assert.equal(r.revisionsKept, false);
    assert.deepEqual([r.keys, r.leases], [5, 1]);
    const src = await all(from);
    const got = await all(etcd);
    assert.deepEqual(
      got.map((k) => [k.key, k.value]),
      src.map((k) => [k.key, k.value]),
    );
    // The order of the source's revisions is the order of etcd's, none shared.
    assert.deepEqual(
      byRevision(got).map((k) => k.key),
      byRevision(src).map((k) => k.key),
    );
    assert.equal(new Set(got.map((k) => k.mod)).size, got.length);
    // The events share one new lease, with about the hour they had left.
    const leases = new Set(got.filter((k) => k.key.includes('/events/')).map((k) => k.lease));
    assert.equal(leases.size, 1);
    assert.ok(![...leases].includes(0));
    assert.equal(
      got.filter((k) => !k.key.includes('/events/')).every((k) => k.lease === 0),
      true,
    );
    const snap = await etcd.snapshot();
    assert.equal(snap.leases.length, 1);
    assert.ok(snap.leases[0]!.remainingMs > 3500_000 && snap.leases[0]!.remainingMs <= 3600_000);

    // A second copy into the same prefix is refused.
    await assert.rejects(migrateKv(from, etcd), /the target already holds keys/);

    // Back out of etcd into a store that restores: etcd's revisions exactly, and the lease.
    const back = createMemoryKv({});
    const out = await migrateKv(etcd, back);
    assert.equal(out.revisionsKept, true);
    assert.deepEqual(await all(back), got);
    assert.equal((await back.snapshot()).leases.length, 1);
    await Promise.all([from.close(), etcd.close(), back.close()]);
  });

  it('refuses a key outside /registry before writing into etcd', async () => {
    const from = createMemoryKv({});
    await from.create('/registry/pods/ns/a', bytes('a'));
    await from.create('/elsewhere', bytes('x'));
    const etcd = await openEtcd('/refused');
    await assert.rejects(migrateKv(from, etcd), /key "\/elsewhere" is outside \/registry\//);
    assert.equal((await all(etcd)).length, 0);
    await Promise.all([from.close(), etcd.close()]);
  });
});
