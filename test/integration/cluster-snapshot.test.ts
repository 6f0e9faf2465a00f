/**
 * Whole-cluster snapshots through `startCluster()`: restore puts back every object with its
 * resourceVersion and the Service allocators' state, removes what was made after, ends the
 * watches open across it (their clients get 410 Gone when they watch again), and survives the
 * round trip through bytes into another cluster. Bad bytes are refused without touching the
 * cluster, and only a user allowed the snapshot path may take or restore one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCluster } from '../../src/index.js';
import type { Cluster } from '../../src/index.js';
import { ApiError, RestClient } from '../../src/client/rest-client.js';
import type { WatchEvent } from '../../src/client/rest-client.js';
import { waitFor } from '../support/poll.js';

const ns = 'default';

function configMap(name: string, data: Record<string, string> = {}) {
  return { apiVersion: 'v1' as const, kind: 'ConfigMap' as const, metadata: { name }, data };
}

async function configMapNames(c: Cluster): Promise<string[]> {
  const list = await c.client.core.v1.configMaps.list({ namespace: ns });
  return list.items
    .map((i) => i.metadata?.name ?? '')
    .filter((n) => n.startsWith('cm-'))
    .sort();
}

test('restore puts objects, resourceVersions and allocations back and ends open watches with 410 Gone', async (t) => {
  const c = await startCluster({ controllers: false, nodes: 0 });
  t.after(() => c.stop());
  const kept = await c.client.core.v1.configMaps.create(configMap('cm-kept', { v: '1' }), { namespace: ns });
  await c.client.core.v1.configMaps.create(configMap('cm-changed', { v: '1' }), { namespace: ns });
  const svc = await c.client.core.v1.services.create(
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } },
    { namespace: ns },
  );
  const snap = await c.snapshot();
  assert.ok(snap.keys > 50, `keys: ${snap.keys}`);

  // After the snapshot: a new object, a change, a deletion, a Service that takes another IP.
  await c.client.core.v1.configMaps.create(configMap('cm-new'), { namespace: ns });
  const changed = await c.client.core.v1.configMaps.get('cm-changed', { namespace: ns });
  await c.client.core.v1.configMaps.update({ ...changed, data: { v: '2' } });
  await c.client.core.v1.configMaps.delete('cm-kept', { namespace: ns });
  await c.client.core.v1.services.delete('web', { namespace: ns });
  const other = await c.client.core.v1.services.create(
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'other' }, spec: { ports: [{ port: 80 }] } },
    { namespace: ns },
  );

  // A watch open across the restore.
  const list = await c.rest.request('GET', `/api/v1/namespaces/${ns}/configmaps`);
  const listRV = (list['metadata'] as { resourceVersion: string }).resourceVersion;
  const stopWatch = new AbortController();
  t.after(() => stopWatch.abort());
  const seen: WatchEvent[] = [];
  const watching = (async () => {
    for await (const ev of c.rest.watch(
      `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${listRV}`,
      stopWatch.signal,
    )) {
      seen.push(ev);
    }
  })();

  await c.restore(snap);

  // The watch ends (as one on a re-initialised watch cache), and watching again from where it
  // was is 410 Gone: everything before the restore is compacted.
  await watching;
  const retried: WatchEvent[] = [];
  for await (const ev of c.rest.watch(
    `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${listRV}`,
    stopWatch.signal,
  )) {
    retried.push(ev);
  }
  assert.equal(retried.length, 1);
  assert.equal(retried[0]?.type, 'ERROR');
  const gone = retried[0]?.object as { code?: number; reason?: string } | undefined;
  assert.equal(gone?.code, 410);
  assert.equal(gone?.reason, 'Expired');
  // Reads see the snapshot at once, objects with the resourceVersions they had.
  assert.deepEqual(await configMapNames(c), ['cm-changed', 'cm-kept']);
  const back = await c.client.core.v1.configMaps.get('cm-kept', { namespace: ns });
  assert.equal(back.metadata?.resourceVersion, kept.metadata?.resourceVersion);
  assert.equal(back.metadata?.uid, kept.metadata?.uid);
  assert.deepEqual((await c.client.core.v1.configMaps.get('cm-changed', { namespace: ns })).data, { v: '1' });
  // The list's resourceVersion is past everything seen before the restore.
  const after = await c.rest.request('GET', `/api/v1/namespaces/${ns}/configmaps`);
  assert.ok(Number((after['metadata'] as { resourceVersion: string }).resourceVersion) > Number(listRV));
  // The allocators: "web" has its IP again, "other"'s IP is free again.
  const web = await c.client.core.v1.services.get('web', { namespace: ns });
  assert.equal(web.spec?.clusterIP, svc.spec?.clusterIP);
  await assert.rejects(c.client.core.v1.services.get('other', { namespace: ns }), /not found/);
  const again = await c.client.core.v1.services.create(
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'again' },
      spec: { clusterIP: other.spec?.clusterIP ?? '', ports: [{ port: 80 }] },
    },
    { namespace: ns },
  );
  assert.equal(again.spec?.clusterIP, other.spec?.clusterIP);
  await assert.rejects(
    c.client.core.v1.services.create(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'clash' },
        spec: { clusterIP: svc.spec?.clusterIP ?? '', ports: [{ port: 80 }] },
      },
      { namespace: ns },
    ),
    /provided IP is already allocated/,
  );
  // Writes go on after the restore.
  await c.client.core.v1.configMaps.create(configMap('cm-after'), { namespace: ns });
  assert.deepEqual(await configMapNames(c), ['cm-after', 'cm-changed', 'cm-kept']);
});

test('a snapshot restores into another cluster from bytes, and controllers pick the state up', async (t) => {
  const a = await startCluster();
  t.after(() => a.stop());
  await a.client.apps.v1.deployments.create(
    {
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
    { namespace: ns },
  );
  await waitFor('two pods in cluster a', async () => {
    const pods = await a.client.core.v1.pods.list({ namespace: ns });
    return pods.items.length === 2;
  });
  const bytes = (await a.snapshot()).bytes();

  const b = await startCluster();
  t.after(() => b.stop());
  await b.restore(bytes);
  const deployment = await b.client.apps.v1.deployments.get('web', { namespace: ns });
  assert.equal(deployment.spec?.replicas, 2);
  // b's controllers relisted: scaling the restored Deployment is acted on.
  await b.client.apps.v1.deployments.patch('web', { spec: { replicas: 3 } }, 'merge', { namespace: ns });
  await waitFor('three pods in cluster b', async () => {
    const pods = await b.client.core.v1.pods.list({ namespace: ns });
    return pods.items.length === 3;
  });
});

test('bad bytes are refused without touching the cluster; only a user allowed the path may restore', async (t) => {
  const c = await startCluster({ controllers: false, nodes: 0 });
  t.after(() => c.stop());
  await c.client.core.v1.configMaps.create(configMap('cm-stays'), { namespace: ns });
  await assert.rejects(c.restore(new TextEncoder().encode('not a snapshot')), /not a nanokube snapshot/);
  const good = (await c.snapshot()).bytes();
  await assert.rejects(c.restore(good.subarray(0, good.length - 3)), /not a nanokube snapshot/);
  // Through the endpoint: a 400 with a Status.
  await assert.rejects(
    c.rest.request('PUT', '/nanokube/v1/snapshot', { body: { not: 'a snapshot' } }),
    (err: unknown) =>
      err instanceof ApiError &&
      err.code === 400 &&
      /not a nanokube snapshot/.test(JSON.stringify(err.status?.['message'])),
  );
  assert.deepEqual(await configMapNames(c), ['cm-stays']);
  // A service account (no RBAC grant on the path) is refused, with the path in the message.
  await c.client.core.v1.serviceAccounts.create(
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    { namespace: ns },
  );
  const tr = await c.rest.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  });
  const robot = new RestClient({
    server: c.url,
    ca: c.caCert,
    token: (tr['status'] as { token: string }).token,
  });
  t.after(() => robot.close());
  for (const method of ['GET', 'PUT'] as const) {
    await assert.rejects(
      robot.request(method, '/nanokube/v1/snapshot', method === 'PUT' ? { body: {} } : {}),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 403 &&
        JSON.stringify(err.status?.['message']).includes('/nanokube/v1/snapshot'),
    );
  }
});
