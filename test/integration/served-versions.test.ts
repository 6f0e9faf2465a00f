/**
 * Seam 2: a resource served at two versions converts through its storage version.
 * HorizontalPodAutoscaler is stored as autoscaling/v2 and served at v1 and v2: objects written at
 * one version read back at the other, v2-only fields survive a v1 round trip, watches at both
 * versions see the same changes in their own version, and discovery shows one storage hash.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
});
after(() => server.stop());

const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

test('written at v1, read at v2 and back (the CPU target becomes a Resource metric)', async () => {
  const created = await server.request('POST', v1, {
    body: {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'one' },
      spec: { scaleTargetRef: target, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json()['apiVersion'], 'autoscaling/v1');
  const asV2 = (await server.request('GET', `${v2}/one`)).json();
  assert.equal(asV2['apiVersion'], 'autoscaling/v2');
  assert.deepEqual(at(asV2, 'spec', 'metrics'), [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
  ]);
  assert.equal(at(asV2, 'metadata', 'annotations'), undefined);
  const asV1 = (await server.request('GET', `${v1}/one`)).json();
  assert.equal(at(asV1, 'spec', 'targetCPUUtilizationPercentage'), 50);
  assert.equal(at(asV1, 'metadata', 'resourceVersion'), at(asV2, 'metadata', 'resourceVersion'));
});

test('v2-only fields survive an update through v1', async () => {
  const memory = {
    type: 'Resource',
    resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
  };
  const created = await server.request('POST', v2, {
    body: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'two' },
      spec: { scaleTargetRef: target, maxReplicas: 4, metrics: [memory] },
    },
  });
  assert.equal(created.status, 201, created.text);
  const asV1 = (await server.request('GET', `${v1}/two`)).json<Json>();
  const annotations = at(asV1, 'metadata', 'annotations') as Record<string, string>;
  assert.match(annotations['autoscaling.alpha.kubernetes.io/metrics'] ?? '', /"memory"/);
  // A v1 client changes maxReplicas and sends everything else back as it read it.
  (asV1['spec'] as Json)['maxReplicas'] = 6;
  const updated = await server.request('PUT', `${v1}/two`, { body: asV1 });
  assert.equal(updated.status, 200, updated.text);
  const back = (await server.request('GET', `${v2}/two`)).json();
  assert.equal(at(back, 'spec', 'maxReplicas'), 6);
  assert.deepEqual(at(back, 'spec', 'metrics'), [memory]);
  assert.equal(at(back, 'metadata', 'annotations'), undefined, 'round-trip annotations are not stored');
});

test('a watch at each version sees the same changes in its own version', async () => {
  const list = (await server.request('GET', v2)).json<{ metadata: { resourceVersion: string } }>();
  const session = adminSession(server);
  const open = (path: string) =>
    collectWatch<Json>(session, `${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  try {
    const w1 = open(v1);
    const w2 = open(v2);
    await new Promise((r) => setTimeout(r, 100));
    await server.request('PATCH', `${v2}/one`, {
      contentType: 'application/merge-patch+json',
      body: { spec: { maxReplicas: 9 } },
    });
    await server.request('DELETE', `${v1}/one`);
    await until(() => w1.lines.length >= 2 && w2.lines.length >= 2, 5000);
    assert.deepEqual(
      w1.lines.map((l) => l['type']),
      ['MODIFIED', 'DELETED'],
    );
    assert.deepEqual(
      w2.lines.map((l) => l['type']),
      ['MODIFIED', 'DELETED'],
    );
    assert.equal(at(w1.lines[0], 'object', 'apiVersion'), 'autoscaling/v1');
    assert.equal(at(w1.lines[0], 'object', 'spec', 'maxReplicas'), 9);
    assert.equal(at(w1.lines[0], 'object', 'spec', 'targetCPUUtilizationPercentage'), 50);
    assert.equal(at(w2.lines[0], 'object', 'apiVersion'), 'autoscaling/v2');
    assert.equal(at(w2.lines[0], 'object', 'spec', 'metrics', 0, 'resource', 'name'), 'cpu');
    assert.equal(
      at(w1.lines[1], 'object', 'metadata', 'resourceVersion'),
      at(w2.lines[1], 'object', 'metadata', 'resourceVersion'),
    );
  } finally {
    session.close();
  }
});

test('discovery: both versions carry the storage version hash, v2 preferred', async () => {
  for (const version of ['v1', 'v2']) {
    const doc = (await server.request('GET', `/apis/autoscaling/${version}`)).json<{ resources: Json[] }>();
    const hpa = doc.resources.find((r) => r['name'] === 'horizontalpodautoscalers');
    assert.equal(hpa?.['storageVersionHash'], 'qwQve8ut294=', version);
  }
  const group = (await server.request('GET', '/apis/autoscaling')).json();
  assert.deepEqual(at(group, 'preferredVersion'), { groupVersion: 'autoscaling/v2', version: 'v2' });
  const table = await server.request('GET', v2, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  assert.deepEqual(
    table.json<{ columnDefinitions: Json[] }>().columnDefinitions.map((c) => c['name']),
    ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
  );
});
