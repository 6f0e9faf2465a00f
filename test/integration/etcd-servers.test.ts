/**
 * Two API servers over one real etcd (`--storage etcd`, AM-13's scale-out): what one writes the
 * other reads and watches, with one resourceVersion order; Services created through both at once
 * never share a cluster IP or node port (the allocation keys are in each Service's transaction);
 * the controllers and simulated nodes of one server run the Deployment whose pods the other
 * reports Running; /readyz and /livez report etcd, /metrics the members' sizes. Skips, saying
 * why, without the etcd binary.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EtcdClient } from '../../src/storage/kv/etcd/client.js';
import { EtcdKv } from '../../src/storage/kv/etcd/etcd-kv.js';
import { EtcdCluster, etcdSkip } from '../../src/storage/kv/etcd/testing/etcd-cluster.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Json = Record<string, unknown>;

describe('two nanokube servers over one etcd (AM-13)', { skip: etcdSkip }, () => {
  let etcd: EtcdCluster;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    etcd = await EtcdCluster.start(1);
    const storage = {
      storage: 'etcd' as const,
      etcd: { servers: etcd.endpoints, prefix: '/registry', compactionIntervalMs: 0 },
      // Small ranges (62 addresses, 60 ports for 24 Services), so the two servers often pick the same
      // free address or port at once.
      serviceClusterIPRange: '10.0.0.0/26',
      serviceNodePortRange: '30000-30059',
    };
    // Each server advertises its own address; the lease reconciler renews every 300 ms, TTL 1 s.
    const reconciler = { endpointReconciler: { intervalMs: 300, ttlSeconds: 1 } };
    a = await startTestServer({ ...storage, ...reconciler, nodes: 1, advertiseAddress: '192.0.2.10' });
    b = await startTestServer({ ...storage, ...reconciler, nodes: 0, advertiseAddress: '192.0.2.11' });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
    await etcd?.stop();
  });

  const cm = (name: string): Json => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { k: name },
  });

  it('what one server writes the other reads and watches, in one resourceVersion order', async () => {
    const list = await b.request('GET', '/api/v1/namespaces/default/configmaps');
    const from = (list.json()['metadata'] as Json)['resourceVersion'] as string;
    const created = await a.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('one') });
    assert.equal(created.status, 201, created.text);
    const rv = Number((created.json()['metadata'] as Json)['resourceVersion']);
    assert.ok(rv > Number(from));
    const got = await b.request('GET', '/api/v1/namespaces/default/configmaps/one');
    assert.equal(got.status, 200);
    assert.equal((got.json()['metadata'] as Json)['resourceVersion'], String(rv));
    // A watch on b from before the write sees it (the watch ends at the timeout).
    const watch = await b.request(
      'GET',
      `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${from}&timeoutSeconds=1`,
    );
    const events = watch.text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: Json } });
    assert.deepEqual(
      events.map((e) => `${e.type} ${String(e.object.metadata['name'])}`),
      ['ADDED one'],
    );
    // An update through b conflicts with a stale resourceVersion sent to a.
    const updated = await b.request('PUT', '/api/v1/namespaces/default/configmaps/one', {
      body: { ...cm('one'), metadata: { name: 'one', resourceVersion: String(rv) }, data: { k: 'two' } },
    });
    assert.equal(updated.status, 200, updated.text);
    const stale = await a.request('PUT', '/api/v1/namespaces/default/configmaps/one', {
      body: { ...cm('one'), metadata: { name: 'one', resourceVersion: String(rv) } },
    });
    assert.equal(stale.status, 409);
    assert.match(
      stale.text,
      /the object has been modified; please apply your changes to the latest version and try again/,
    );
  });

  it('Services created through both servers at once never share a cluster IP or node port', async () => {
    const made = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 === 0 ? a : b).request('POST', '/api/v1/namespaces/default/services', {
          body: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: `s${i}` },
            spec: { type: 'NodePort', ports: [{ port: 80 }] },
          },
        }),
      ),
    );
    const specs = made.map((r) => {
      assert.equal(r.status, 201, r.text);
      return r.json()['spec'] as { clusterIP: string; ports: { nodePort: number }[] };
    });
    assert.equal(new Set(specs.map((s) => s.clusterIP)).size, 24);
    assert.equal(new Set(specs.map((s) => s.ports[0]!.nodePort)).size, 24);
  });

  it("one server's controllers and nodes run a Deployment whose pods the other reports Running", async () => {
    const created = await b.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    const deadline = Date.now() + 30_000;
    let phases: string[] = [];
    while (Date.now() < deadline) {
      const pods = (await b.request('GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb')).json();
      phases = (pods['items'] as { status?: { phase?: string } }[]).map((p) => p.status?.phase ?? '');
      if (phases.length === 2 && phases.every((p) => p === 'Running')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(phases, ['Running', 'Running']);
  });

  const endpointIPs = async (s: TestServer): Promise<string[]> => {
    const e = (await s.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json();
    const subsets = (e['subsets'] ?? []) as { addresses?: { ip: string }[] }[];
    return (subsets[0]?.addresses ?? []).map((x) => x.ip).sort();
  };
  const until = async (what: string, ok: () => Promise<boolean>): Promise<void> => {
    const deadline = Date.now() + 15_000;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('the kubernetes Endpoints list every live server; one that stops renewing drops out', async () => {
    await until('both servers listed', async () => (await endpointIPs(a)).join() === '192.0.2.10,192.0.2.11');
    const slice = (
      await b.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')
    ).json();
    assert.deepEqual((slice['endpoints'] as { addresses: string[] }[]).map((e) => e.addresses[0]).sort(), [
      '192.0.2.10',
      '192.0.2.11',
    ]);
    // A third server's record that is never renewed (as if it died): listed, then gone after its TTL.
    const client = await EtcdClient.open({ endpoints: etcd.endpoints });
    const kv = new EtcdKv({ client, prefix: { local: '/registry', remote: '/registry' } });
    const lease = await kv.grantLease(1);
    await kv.create('/registry/masterleases/192.0.2.12', new TextEncoder().encode('{}'), { lease: lease.id });
    await until('the third listed', async () => (await endpointIPs(b)).length === 3);
    await until('the third dropped', async () => (await endpointIPs(b)).join() === '192.0.2.10,192.0.2.11');
    await kv.close();
  });

  it("/readyz and /livez report etcd; /metrics has each member's database size and the etcd requests", async () => {
    for (const path of ['/readyz?verbose', '/livez?verbose']) {
      const r = await b.request('GET', path);
      assert.equal(r.status, 200);
      assert.match(r.text, /^\[\+\]etcd ok$/m);
    }
    const m = await b.request('GET', '/metrics', { accept: '*/*' });
    assert.equal(m.status, 200);
    for (const url of etcd.endpoints) {
      const line = new RegExp(
        `^apiserver_storage_db_total_size_in_bytes\\{endpoint="${url}"\\} (\\d+)$`,
        'm',
      ).exec(m.text);
      assert.ok(line !== null && Number(line[1]) > 0, `the size of ${url}`);
    }
    assert.match(
      m.text,
      /^etcd_request_duration_seconds_count\{operation="create",type="services"\} [1-9]\d*$/m,
    );
  });

  it('a server that shuts down takes itself out of the kubernetes Endpoints', async () => {
    await b.stop();
    await until('only a listed', async () => (await endpointIPs(a)).join() === '192.0.2.10');
  });
});
