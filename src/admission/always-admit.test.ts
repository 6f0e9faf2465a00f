import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alwaysAdmitPlugin } from './always-admit.js';
import { attrsOf, runPlugin, testDeps } from './testing/fake-admission-deps.js';

test('AlwaysAdmit admits every operation and warns that it is deprecated', async () => {
  const deps = testDeps();
  const plugin = alwaysAdmitPlugin(deps);
  assert.equal(plugin.name, 'AlwaysAdmit');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);
  assert.deepEqual(deps.logged, [
    'AlwaysAdmit admission controller is deprecated. Please remove this controller from your configuration files and scripts.',
  ]);
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
  for (const operation of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) {
    await runPlugin(plugin, attrsOf({ operation, resource: 'pods', kind: 'Pod', namespace: 'ns', object }));
  }
});
