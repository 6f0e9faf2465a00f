import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namespaceExistsPlugin } from './namespace-exists.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const ns = (name: string): StoredObject => ({
  group: '',
  resource: 'namespaces',
  object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
});
const plugin = namespaceExistsPlugin(testDeps({ objects: [ns('here')], liveOnly: [ns('fresh')] }));
const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } };

test('NamespaceExists validates creates, updates and deletes', () => {
  assert.equal(plugin.name, 'NamespaceExists');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE', 'DELETE']);
});

test('writes in existing namespaces pass (also one only the live read sees)', async () => {
  await runPlugin(plugin, attrsOf({ resource: 'configmaps', kind: 'ConfigMap', namespace: 'here', object }));
  await runPlugin(plugin, attrsOf({ resource: 'configmaps', kind: 'ConfigMap', namespace: 'fresh', object }));
});

test('a write in a missing namespace is refused with its NotFound', async () => {
  for (const operation of ['CREATE', 'UPDATE', 'DELETE'] as const) {
    await assert.rejects(
      runPlugin(
        plugin,
        attrsOf({ operation, resource: 'configmaps', kind: 'ConfigMap', namespace: 'gone', object }),
      ),
      (err) => {
        assert.deepEqual(statusOf(err), { code: 404, message: 'namespaces "gone" not found' });
        return true;
      },
    );
  }
});

test('cluster-scoped requests and Namespaces themselves are not checked', async () => {
  await runPlugin(plugin, attrsOf({ resource: 'nodes', kind: 'Node', namespaced: false, object }));
  await runPlugin(
    plugin,
    attrsOf({
      operation: 'UPDATE',
      resource: 'namespaces',
      subresource: 'finalize',
      kind: 'Namespace',
      namespace: 'gone',
      object,
    }),
  );
});
