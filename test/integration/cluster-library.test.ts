/**
 * `startCluster()`, the library entry for tests: isolated clusters side by side in one process,
 * the kubeconfig in its three forms, the in-process typed client, `stop()` leaving no handle or
 * timer behind, and a manual clock driving CronJobs, token expiry, Event TTLs and the timestamps
 * the server writes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { startCluster } from '../../src/index.js';
import { ApiError, RestClient } from '../../src/client/rest-client.js';
import { waitFor } from '../support/poll.js';

/** Active handles by type (timers, sockets, servers...), for before/after comparisons. */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

test('clusters in one process are isolated, and stop() leaves no handle or timer open', async () => {
  const before = resourceCounts();
  const [a, b] = await Promise.all([startCluster(), startCluster({ controllers: false, nodes: 0 })]);
  assert.notEqual(a.port, b.port);
  await a.client.core.v1.configMaps.create(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'only-in-a' }, data: { k: 'v' } },
    { namespace: 'default' },
  );
  const inB = await b.client.core.v1.configMaps.list({ namespace: 'default' });
  assert.deepEqual(
    inB.items.map((c) => c.metadata?.name).filter((n) => n === 'only-in-a'),
    [],
  );
  // The kubeconfig as a file, a string and an object: one and the same, pointing at the cluster.
  assert.equal(readFileSync(a.kubeconfigPath, 'utf8'), a.kubeconfig);
  assert.deepEqual(parseYaml(a.kubeconfig), a.kubeconfigObject);
  assert.equal(a.kubeconfigObject.clusters[0]?.cluster['server'], a.url);
  // Over the network with the kubeconfig's admin certificate.
  const user = a.kubeconfigObject.users[0]!.user;
  const https = new RestClient({
    server: a.url,
    ca: a.caCert,
    cert: Buffer.from(user['client-certificate-data']!, 'base64').toString(),
    key: Buffer.from(user['client-key-data']!, 'base64').toString(),
  });
  const got = await https.request('GET', '/api/v1/namespaces/default/configmaps/only-in-a');
  assert.deepEqual(got['data'], { k: 'v' });
  https.close();
  // A running cluster's controllers register its simulated node; the bare one has none.
  await waitFor('a node in cluster a', async () => (await a.client.core.v1.nodes.list()).items.length === 1);
  assert.equal((await b.client.core.v1.nodes.list()).items.length, 0);
  const dir = a.kubeconfigPath;
  await Promise.all([a.stop(), b.stop()]);
  assert.equal(existsSync(dir), false, 'the temporary directory is removed');
  // Closed sockets and cleared timers leave the active list on the next turns of the loop.
  await waitFor(
    'every handle released',
    () => {
      const after = resourceCounts();
      for (const [type, n] of after) if (n > (before.get(type) ?? 0)) return false;
      return true;
    },
    5_000,
  );
  await assert.rejects(a.client.core.v1.namespaces.list(), /closed/);
});

test("a manual clock fires CronJobs on the cluster's time", async () => {
  const c = await startCluster({ clock: 'manual' });
  try {
    assert.equal(c.clock.mode, 'manual');
    const ns = 'default';
    await c.client.batch.v1.cronJobs.create(
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'tick' },
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: {
            spec: {
              template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
            },
          },
        },
      },
      { namespace: ns },
    );
    // Nothing fires while the wall clock runs: the schedule is on the cluster's time.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await c.client.batch.v1.jobs.list({ namespace: ns })).items.length, 0);
    const job = await waitFor('the CronJob to fire', async () => {
      await c.clock.advance('1m');
      return (await c.client.batch.v1.jobs.list({ namespace: ns })).items[0];
    });
    // Its name carries the scheduled minute, a multiple of five on the cluster's clock.
    const minutes = Number(/^tick-(\d+)$/.exec(job.metadata?.name ?? '')?.[1]);
    assert.equal(minutes % 5, 0);
    assert.ok(minutes * 60_000 <= c.clock.now().getTime());

    // Ten minutes in one call: the node heartbeats all along (its Lease renewed within the last
    // 10 s of cluster time), so the node lifecycle controller keeps it Ready.
    await c.clock.advance('10m');
    const lease = await c.client.coordination.v1.leases.get('nanokube-node-0', {
      namespace: 'kube-node-lease',
    });
    const renewed = Date.parse(lease.spec?.renewTime ?? '');
    assert.ok(
      c.clock.now().getTime() - renewed <= 40_000,
      `renewed ${lease.spec?.renewTime} at ${c.clock.now().toISOString()}`,
    );
    const node = await c.client.core.v1.nodes.get('nanokube-node-0');
    const ready = node.status?.conditions?.find((x) => x.type === 'Ready');
    assert.equal(ready?.status, 'True');
  } finally {
    await c.stop();
  }
});

test('a manual clock expires tokens and Event TTLs, and stamps what the server writes', async (t) => {
  // Without controllers nothing else runs on the clock, so long advances are quick.
  const c = await startCluster({
    clock: { manual: Date.parse('2030-01-01T00:00:00Z') },
    controllers: false,
    nodes: 0,
  });
  try {
    const ns = 'default';
    assert.equal(c.clock.now().toISOString(), '2030-01-01T00:00:00.000Z');
    await c.clock.advance('2h');
    const cm = await c.client.core.v1.configMaps.create(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stamped' } },
      { namespace: ns },
    );
    assert.equal(cm.metadata?.creationTimestamp, '2030-01-01T02:00:00Z');

    // A bound token for 10 minutes works, and is refused once the clock has moved past its expiry.
    await c.client.core.v1.serviceAccounts.create(
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
      { namespace: ns },
    );
    const tr = await c.rest.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 600 },
      },
    });
    const status = tr['status'] as { token: string; expirationTimestamp: string };
    assert.equal(status.expirationTimestamp, '2030-01-01T02:10:00Z');
    const asToken = new RestClient({ server: c.url, ca: c.caCert, token: status.token });
    t.after(() => asToken.close());
    const review = { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' };
    const path = '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews';
    const who = await asToken.request('POST', path, { body: review });
    assert.match(JSON.stringify(who), /system:serviceaccount:default:robot/);
    // Past the expiry and go-jose's minute of leeway.
    await c.clock.advance('12m');
    await assert.rejects(
      asToken.request('POST', path, { body: review }),
      (err: unknown) => err instanceof ApiError && err.code === 401,
    );

    // Graceful deletion: the deletionTimestamp is the cluster's now plus the grace period.
    await c.client.core.v1.pods.create(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: {
          serviceAccountName: 'robot',
          containers: [{ name: 'c', image: 'busybox' }],
          nodeName: 'nowhere',
        },
      },
      { namespace: ns },
    );
    const deleting = await c.rest.request('DELETE', `/api/v1/namespaces/${ns}/pods/p`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 30 },
    });
    const meta = deleting['metadata'] as { deletionTimestamp: string };
    assert.equal(meta.deletionTimestamp, '2030-01-01T02:12:30Z');

    // Events expire an hour (kube-apiserver's --event-ttl) after they were written, on this clock.
    await c.client.core.v1.events.create(
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'short-lived' },
        involvedObject: { kind: 'ConfigMap', name: 'stamped', namespace: ns },
        reason: 'Test',
        message: 'expires',
      },
      { namespace: ns },
    );
    await c.clock.advance('59m');
    await new Promise((r) => setTimeout(r, 600));
    assert.equal((await c.client.core.v1.events.get('short-lived', { namespace: ns })).reason, 'Test');
    await c.clock.advance('2m');
    await waitFor('the Event to expire', async () => {
      try {
        await c.client.core.v1.events.get('short-lived', { namespace: ns });
        return false;
      } catch (err) {
        return err instanceof ApiError && err.code === 404;
      }
    });
  } finally {
    await c.stop();
  }
});

test('a real clock cannot be advanced', async () => {
  const c = await startCluster({ controllers: false, nodes: 0 });
  try {
    assert.equal(c.clock.mode, 'real');
    await assert.rejects(c.clock.advance('1m'), /real clock/);
  } finally {
    await c.stop();
  }
});
