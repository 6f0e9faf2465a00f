/**
 * Componentstatuses (core/v1, deprecated) are computed by probing the components the way
 * upstream does: etcd (the storage backend), the scheduler (:10259) and the controller manager
 * (:10257) — neither of which nanokube runs as a separate server, so they show as unhealthy with
 * Go's connection-refused error unless something answers there.
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

test('list and get with the deprecation warning, etcd-0 healthy', async () => {
  const r = await s.request('GET', '/api/v1/componentstatuses');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.warnings, ['v1 ComponentStatus is deprecated in v1.19+']);
  const list = r.json<{
    kind: string;
    items: { metadata: { name: string }; conditions: Record<string, string>[] }[];
  }>();
  assert.equal(list.kind, 'ComponentStatusList');
  assert.deepEqual(
    list.items.map((i) => i.metadata.name),
    ['controller-manager', 'etcd-0', 'scheduler'],
  );
  const etcd = (await s.request('GET', '/api/v1/componentstatuses/etcd-0')).json();
  assert.deepEqual(etcd['conditions'], [
    { type: 'Healthy', status: 'True', message: '{"health":"true","reason":""}' },
  ]);
  const scheduler = list.items.find((i) => i.metadata.name === 'scheduler')!.conditions[0]!;
  if (scheduler['status'] === 'False') {
    assert.match(scheduler['error'] ?? '', /^Get "https:\/\/127\.0\.0\.1:10259\/healthz": /);
  }
  assert.equal((await s.request('GET', '/api/v1/componentstatuses/nope')).status, 404);
  assert.equal((await s.request('DELETE', '/api/v1/componentstatuses/etcd-0')).status, 405);
});

test('Table output has upstream columns, and discovery lists cs as the reference', async () => {
  const t = await s.request('GET', '/api/v1/componentstatuses', {
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
  });
  const table = t.json<{ columnDefinitions: { name: string }[]; rows: { cells: string[] }[] }>();
  assert.deepEqual(
    table.columnDefinitions.map((c) => c.name),
    ['Name', 'Status', 'Message', 'Error'],
  );
  assert.deepEqual(table.rows.find((r) => r.cells[0] === 'etcd-0')?.cells.slice(0, 2), ['etcd-0', 'Healthy']);
  const resources = (await s.request('GET', '/api/v1')).json<{ resources: Record<string, unknown>[] }>()
    .resources;
  assert.deepEqual(
    resources.find((r) => r['name'] === 'componentstatuses'),
    {
      name: 'componentstatuses',
      singularName: 'componentstatus',
      namespaced: false,
      kind: 'ComponentStatus',
      verbs: ['get', 'list'],
      shortNames: ['cs'],
    },
  );
});
