/**
 * AM-22: pods/{name}/eviction as upstream's EvictionREST (v1.27): a pod that is not
 * running is deleted at once; a running pod is deleted only when its PodDisruptionBudget allows a
 * disruption, which the eviction takes from the budget's status; otherwise 429 with the
 * DisruptionBudget cause. A dry-run eviction persists nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ controllers: false, storage: 'memory' });
});
after(() => s.stop());

type Json = Record<string, unknown>;
const ns = '/api/v1/namespaces/default';
const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const eviction = (name: string, extra: Json = {}): Json => ({
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name },
  ...extra,
});

async function runningPod(name: string, labels: Record<string, string>): Promise<void> {
  const created = await s.request('POST', `${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels },
      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
    },
  });
  assert.equal(created.status, 201, created.text);
  const pod = created.json();
  const status = await s.request('PUT', `${ns}/pods/${name}/status`, {
    body: {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    },
  });
  assert.equal(status.status, 200, status.text);
}

async function budget(name: string, app: string, disruptionsAllowed: number): Promise<void> {
  const created = await s.request('POST', pdbs, {
    body: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name },
      spec: { minAvailable: 1, selector: { matchLabels: { app } } },
    },
  });
  assert.equal(created.status, 201, created.text);
  const pdb = created.json();
  const st = await s.request('PUT', `${pdbs}/${name}/status`, {
    body: {
      ...pdb,
      status: {
        observedGeneration: 1,
        disruptionsAllowed,
        currentHealthy: 1 + disruptionsAllowed,
        desiredHealthy: 1,
        expectedPods: 1 + disruptionsAllowed,
      },
    },
  });
  assert.equal(st.status, 200, st.text);
}

test('a pod that is not running is deleted at once', async () => {
  const created = await s.request('POST', `${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pending' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    },
  });
  assert.equal(created.status, 201);
  const r = await s.request('POST', `${ns}/pods/pending/eviction`, { body: eviction('pending') });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
  assert.equal((await s.request('GET', `${ns}/pods/pending`)).status, 404);
});

test('a budget with no disruption left refuses with 429 and the DisruptionBudget cause', async () => {
  await runningPod('db', { app: 'db' });
  await budget('db', 'db', 0);
  const r = await s.request('POST', `${ns}/pods/db/eviction`, { body: eviction('db') });
  assert.equal(r.status, 429);
  assert.deepEqual(r.json(), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    reason: 'TooManyRequests',
    details: {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: 'The disruption budget db needs 1 healthy pods and has 1 currently',
        },
      ],
    },
    code: 429,
  });
  assert.equal((await s.request('GET', `${ns}/pods/db`)).status, 200);
});

test('AM-22: a dry-run eviction persists nothing; a real one takes a disruption and deletes', async () => {
  await runningPod('web', { app: 'web' });
  await budget('web', 'web', 1);
  const before = (await s.request('GET', `${pdbs}/web`)).json();
  const dry = await s.request('POST', `${ns}/pods/web/eviction?dryRun=All`, { body: eviction('web') });
  assert.equal(dry.status, 201, dry.text);
  const pod = (await s.request('GET', `${ns}/pods/web`)).json();
  assert.equal((pod['metadata'] as Json)['deletionTimestamp'], undefined);
  assert.deepEqual((await s.request('GET', `${pdbs}/web`)).json(), before);

  const real = await s.request('POST', `${ns}/pods/web/eviction`, { body: eviction('web') });
  assert.equal(real.status, 201, real.text);
  const evicted = (await s.request('GET', `${ns}/pods/web`)).json();
  // Bound to a node: deleted gracefully, with the DisruptionTarget condition.
  assert.notEqual((evicted['metadata'] as Json)['deletionTimestamp'], undefined);
  const conditions = ((evicted['status'] as Json)['conditions'] as Json[]).map(
    (c) => `${String(c['type'])}=${typeof c['reason'] === 'string' ? c['reason'] : ''}`,
  );
  assert.ok(conditions.includes('DisruptionTarget=EvictionByEvictionAPI'), conditions.join(','));
  const status = (await s.request('GET', `${pdbs}/web`)).json()['status'] as Json;
  assert.equal(status['disruptionsAllowed'], 0);
  assert.deepEqual(Object.keys(status['disruptedPods'] as Json), ['web']);
});

test('names must match, a missing pod is 404, and discovery lists pods/eviction as the reference', async () => {
  const mismatch = await s.request('POST', `${ns}/pods/db/eviction`, { body: eviction('other') });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.json()['message'], 'name in URL does not match name in Eviction object');
  assert.equal((await s.request('POST', `${ns}/pods/nope/eviction`, { body: eviction('nope') })).status, 404);
  const resources = (await s.request('GET', '/api/v1')).json<{ resources: Json[] }>().resources;
  assert.deepEqual(
    resources.find((r) => r['name'] === 'pods/eviction'),
    {
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    },
  );
});
