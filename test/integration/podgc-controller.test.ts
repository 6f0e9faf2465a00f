/**
 * The pod garbage collector against the in-process server, with a threshold of 2 and
 * short periods: terminated pods beyond the threshold go oldest first, pods bound to a node that
 * does not exist go after the quarantine (marked Failed with DeletionByPodGC first), and an
 * unscheduled terminating pod is marked Failed and force-deleted.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PodGCController } from '../../src/controllers/podgc/podgc-controller.js';
import type { JsonObject } from '../../src/util/json.js';
import { container, createNamespace, listPods, podName, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'podgc-test';
const pods = `/api/v1/namespaces/${ns}/pods`;

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  await c.client.request('POST', '/api/v1/nodes', {
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'real' } },
  });
  const gc = new PodGCController({
    client: c.client,
    informers: c.informers,
    onError: (e: unknown) => c.errors.push(e),
    terminatedPodThreshold: 2,
    gcCheckPeriodMs: 100,
    quarantineMs: 300,
  });
  c.start([(s) => gc.run(s)]);
});

after(async () => {
  await c.stop();
});

async function pod(
  name: string,
  extra: { nodeName?: string; phase?: string; finalizers?: string[] } = {},
): Promise<void> {
  const created = await c.client.request('POST', pods, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: { t: name.split('-')[0] ?? '' },
        ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
      },
      spec: { containers: [container('nginx')], ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
    },
  });
  if (extra.phase !== undefined) {
    created['status'] = { phase: extra.phase };
    await c.client.request('PUT', `${pods}/${name}/status`, { body: created });
  }
}

async function get(name: string): Promise<JsonObject | undefined> {
  try {
    return await c.client.request('GET', `${pods}/${name}`);
  } catch {
    return undefined;
  }
}

test('terminated pods beyond the threshold are deleted, oldest first', async () => {
  for (const n of ['done-a', 'done-b', 'done-c', 'done-d'])
    await pod(n, { nodeName: 'real', phase: 'Succeeded' });
  await pod('running-a', { nodeName: 'real', phase: 'Running' });
  const left = await waitFor('two terminated pods left', async () => {
    const names = (await listPods(c.client, ns, 't=done')).map(podName).sort();
    return names.length === 2 ? names : undefined;
  });
  assert.deepEqual(left, ['done-c', 'done-d']);
  assert.notEqual(await get('running-a'), undefined);
});

test('pods bound to a node that does not exist are marked Failed and deleted after the quarantine', async () => {
  await pod('orphan-a', { nodeName: 'ghost', phase: 'Running', finalizers: ['example.com/hold'] });
  const failed = await waitFor('the orphan marked Failed and deleted', async () => {
    const p = await get('orphan-a');
    const m = p?.['metadata'] as JsonObject | undefined;
    return m?.['deletionTimestamp'] !== undefined ? p : undefined;
  });
  const status = failed['status'] as JsonObject;
  assert.equal(status['phase'], 'Failed');
  const cond = ((status['conditions'] ?? []) as JsonObject[]).find((x) => x['type'] === 'DisruptionTarget');
  assert.equal(cond?.['status'], 'True');
  assert.equal(cond?.['reason'], 'DeletionByPodGC');
  assert.equal(cond?.['message'], 'PodGC: node no longer exists');
  assert.equal((failed['metadata'] as JsonObject)['deletionGracePeriodSeconds'], 0);
  await c.client.request('PATCH', `${pods}/orphan-a`, {
    body: { metadata: { finalizers: null } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('the orphan gone', async () => (await get('orphan-a')) === undefined);
  assert.notEqual(await get('running-a'), undefined);
});

test('an unscheduled terminating pod is marked Failed and force-deleted', async () => {
  await pod('unscheduled-a', { finalizers: ['example.com/hold'] });
  await c.client.request('DELETE', `${pods}/unscheduled-a`);
  await waitFor('the unscheduled pod Failed', async () => {
    const p = await get('unscheduled-a');
    return (p?.['status'] as JsonObject | undefined)?.['phase'] === 'Failed';
  });
  await c.client.request('PATCH', `${pods}/unscheduled-a`, {
    body: { metadata: { finalizers: null } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('the unscheduled pod gone', async () => (await get('unscheduled-a')) === undefined);
});
