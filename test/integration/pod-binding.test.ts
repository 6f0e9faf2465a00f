/**
 * Pods/{name}/binding and the bindings collection place a pod on a node as upstream's
 * BindingREST: spec.nodeName set, PodScheduled True, 201 Success; a bound pod refuses a second
 * binding with 409; a dry run changes nothing; scheduling gates block binding.
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

const pods = '/api/v1/namespaces/default/pods';
type Json = Record<string, unknown>;
const pod = (name: string, extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
});
const binding = (name: string, node: string): Json => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name },
  target: { kind: 'Node', name: node },
});

test('binding through pods/{name}/binding sets nodeName and PodScheduled, once', async () => {
  assert.equal((await s.request('POST', pods, { body: pod('web') })).status, 201);
  const dry = await s.request('POST', `${pods}/web/binding?dryRun=All`, { body: binding('web', 'node-1') });
  assert.equal(dry.status, 201);
  assert.equal(((await s.request('GET', `${pods}/web`)).json()['spec'] as Json)['nodeName'], undefined);
  const r = await s.request('POST', `${pods}/web/binding`, { body: binding('web', 'node-1') });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
  const bound = (await s.request('GET', `${pods}/web`)).json();
  assert.equal((bound['spec'] as Json)['nodeName'], 'node-1');
  const conditions = ((bound['status'] as Json)['conditions'] as Json[]).map(
    (c) => `${String(c['type'])}=${String(c['status'])}`,
  );
  assert.deepEqual(conditions, ['PodScheduled=True']);
  const again = await s.request('POST', `${pods}/web/binding`, { body: binding('web', 'node-2') });
  assert.equal(again.status, 409);
  assert.equal(
    again.json()['message'],
    'Operation cannot be fulfilled on pods "web": pod web is already assigned to node "node-1"',
  );
});

test('the bindings collection, name checks, gates and a missing target', async () => {
  assert.equal((await s.request('POST', pods, { body: pod('api') })).status, 201);
  const r = await s.request('POST', '/api/v1/namespaces/default/bindings', {
    body: binding('api', 'node-9'),
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(((await s.request('GET', `${pods}/api`)).json()['spec'] as Json)['nodeName'], 'node-9');
  const mismatch = await s.request('POST', `${pods}/web/binding`, { body: binding('api', 'n') });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.json()['message'], 'name in URL does not match name in Binding object');
  assert.equal(
    (await s.request('POST', pods, { body: pod('gated', { schedulingGates: [{ name: 'wait' }] }) })).status,
    201,
  );
  const gated = await s.request('POST', `${pods}/gated/binding`, { body: binding('gated', 'n') });
  assert.equal(gated.status, 409);
  assert.match(String(gated.json()['message']), /pod gated has non-empty \.spec\.schedulingGates/);
  const missing = await s.request('POST', `${pods}/nope/binding`, { body: binding('nope', 'n') });
  assert.equal(missing.status, 404);
  assert.equal((await s.request('GET', `${pods}/web/binding`)).status, 405);
});

test('discovery lists pods/binding and bindings as the reference does', async () => {
  const resources = (await s.request('GET', '/api/v1')).json<{ resources: Json[] }>().resources;
  assert.deepEqual(
    resources.find((r) => r['name'] === 'pods/binding'),
    { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] },
  );
  assert.deepEqual(
    resources.find((r) => r['name'] === 'bindings'),
    { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] },
  );
});
