/**
 * The etcd backend against real etcd (AM-13's storage): the KvStore conformance suite on a single
 * member, each case on a fresh one (the suite counts revisions from an empty store). Snapshot
 * restore is left out: etcd assigns revisions itself, and the backend refuses it (tested below).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runKvConformance } from '../testing/conformance.js';
import { bytes, text } from '../testing/helpers.js';
import { prefixEnd } from '../types.js';
import { EtcdClient } from './client.js';
import { KvCompactedError } from '../errors.js';
import { compactRound } from './compactor.js';
import { EtcdKv } from './etcd-kv.js';
import { EtcdCluster, etcdSkip } from './testing/etcd-cluster.js';

/** Opens a store on a new etcd of `size` members; closing the store stops them. */
async function openOnNewEtcd(options: { watchMaxQueuedEvents?: number } = {}, size = 1): Promise<EtcdKv> {
  const cluster = await EtcdCluster.start(size);
  const client = await EtcdClient.open({ endpoints: cluster.endpoints });
  const kv = new EtcdKv({
    client,
    // A new etcd is at revision 1; the suite counts from an empty store at 0.
    revisionBase: 1,
    ...(options.watchMaxQueuedEvents !== undefined
      ? { watchMaxQueuedEvents: options.watchMaxQueuedEvents }
      : {}),
  });
  // As the server does at the start: the client then knows a revision ("now" for watches).
  await kv.currentRevision();
  const close = kv.close.bind(kv);
  kv.close = async () => {
    await close();
    await cluster.stop();
  };
  return kv;
}

if (etcdSkip !== false) {
  void describe('etcd kv', { skip: etcdSkip }, () => undefined);
} else {
  runKvConformance('etcd (one member)', openOnNewEtcd, { restore: false, callOrder: false });
  runKvConformance('etcd (three members)', (o) => openOnNewEtcd(o, 3), { restore: false, callOrder: false });

  void describe('etcd kv: compaction shared by several servers', () => {
    let cluster: EtcdCluster | undefined;
    after(() => cluster?.stop());
    it('one CAS on compact_rev_key wins each round; the history of the last round stays', async () => {
      cluster = await EtcdCluster.start(1);
      const [c1, c2] = await Promise.all(
        [1, 2].map(() => EtcdClient.open({ endpoints: cluster!.endpoints })),
      );
      const kv = new EtcdKv({ client: c1! });
      await kv.create('/a', bytes('1'));
      // Round one: server 1 records the current revision and compacts nothing; server 2 loses the CAS.
      const first = await compactRound(c1!, 0, 0);
      assert.deepEqual([first.version, first.compacted], [1, false]);
      const lost = await compactRound(c2!, 0, 0);
      assert.deepEqual([lost.version, lost.compacted], [1, false]);
      for (let i = 0; i < 5; i++)
        await kv.update('/a', bytes(String(i)), (await kv.range({ key: '/a' })).kvs[0]!.modRevision);
      // Round two: server 2 (now knowing the version) wins and compacts what round one recorded.
      const second = await compactRound(c2!, lost.version, lost.revision);
      assert.deepEqual([second.version, second.compacted], [2, true]);
      assert.equal(await kv.compactedRevision(), lost.revision);
      await assert.rejects(kv.range({ key: '/a', revision: lost.revision - 1 }), KvCompactedError);
      assert.equal((await kv.range({ key: '/a', revision: lost.revision })).count, 1);
      // Server 1, a round behind, loses and learns the version.
      const behind = await compactRound(c1!, first.version, first.revision);
      assert.deepEqual([behind.version, behind.compacted], [2, false]);
      await kv.close();
      c2!.close();
    });
  });

  void describe('etcd kv: a member dies', () => {
    let cluster: EtcdCluster | undefined;
    after(() => cluster?.stop());
    it('reads move to another member and the watch resumes where it was: nothing lost or repeated', async () => {
      cluster = await EtcdCluster.start(3);
      const client = await EtcdClient.open({ endpoints: cluster.endpoints, requestTimeoutMs: 3000 });
      const kv = new EtcdKv({ client, revisionBase: 1 });
      const seen: number[] = [];
      const watching = (async () => {
        for await (const ev of kv.watch({ key: '/', end: prefixEnd('/'), startRevision: 1 })) {
          seen.push(ev.kv.modRevision);
          if (seen.length === 60) break;
        }
      })();
      /** A write as an API client makes it: retried when the answer is lost, done if it landed. */
      const write = async (i: number): Promise<void> => {
        for (let attempt = 0; ; attempt++) {
          try {
            const r = await kv.create(`/k${i}`, bytes(String(i)));
            if (r.ok || text(r.current.value) === String(i)) return;
            throw new Error(`/k${i} holds something else`);
          } catch (err) {
            if (attempt > 20) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      for (let i = 0; i < 30; i++) await write(i);
      const used = cluster.endpoints.indexOf(client.endpoint);
      cluster.kill(used);
      for (let i = 30; i < 60; i++) await write(i);
      assert.notEqual(client.endpoint, cluster.endpoints[used], 'calls moved to another member');
      assert.equal((await kv.range({ key: '/', end: prefixEnd('/'), countOnly: true })).count, 60);
      await watching;
      assert.deepEqual(
        seen,
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      await kv.close();
    });
  });

  void describe('etcd kv: what etcd cannot do', () => {
    let kv: EtcdKv | undefined;
    after(() => kv?.close());
    it('refuses to restore a snapshot, saying why', async () => {
      kv = await openOnNewEtcd();
      const snap = await kv.snapshot();
      await assert.rejects(kv.restore(), /etcd assigns every revision itself/);
      assert.equal(snap.kvs.length, 0);
    });
  });
}
