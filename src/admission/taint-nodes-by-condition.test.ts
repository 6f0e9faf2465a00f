import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import type { ObjectAttributes } from './attributes.js';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.js';
import { testDeps, testUser } from './testing/fake-admission-deps.js';

const node = (spec?: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, ...(spec ? { spec } : {}) }) as KubeObject;

const attrs = (object: KubeObject, subresource = ''): ObjectAttributes => ({
  operation: 'CREATE',
  resource: { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  subresource,
  namespace: '',
  name: 'n1',
  object,
  dryRun: false,
  user: testUser(),
});

const plugin = taintNodesByConditionPlugin(testDeps());

test('TaintNodesByCondition handles node creates only', () => {
  assert.equal(plugin.name, 'TaintNodesByCondition');
  assert.deepEqual([...plugin.operations], ['CREATE']);
});

test('a created node gets the not-ready NoSchedule taint after its own', async () => {
  const n = node({ taints: [{ key: 'a', value: 'b', effect: 'NoExecute' }] });
  await plugin.admit?.(attrs(n));
  assert.deepEqual(n['spec'], {
    taints: [
      { key: 'a', value: 'b', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ],
  });
  const bare = node();
  await plugin.admit?.(attrs(bare));
  assert.deepEqual(bare['spec'], { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
});

test('an existing not-ready NoSchedule taint is not repeated; other effects do not count', async () => {
  const same = node({ taints: [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }] });
  await plugin.admit?.(attrs(same));
  assert.equal((same['spec'] as { taints: unknown[] }).taints.length, 1);
  const other = node({ taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] });
  await plugin.admit?.(attrs(other));
  assert.equal((other['spec'] as { taints: unknown[] }).taints.length, 2);
});

test('subresources and other resources are left alone', async () => {
  const n = node();
  await plugin.admit?.(attrs(n, 'status'));
  assert.equal(n['spec'], undefined);
  const pod = node();
  await plugin.admit?.({ ...attrs(pod), resource: { ...attrs(pod).resource, resource: 'pods' } });
  assert.equal(pod['spec'], undefined);
});
