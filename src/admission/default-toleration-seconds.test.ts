import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';

const pod = (tolerations?: unknown[]): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [], ...(tolerations !== undefined ? { tolerations } : {}) },
  }) as KubeObject;
const attrs = (object: KubeObject, subresource = '') => ({
  operation: 'CREATE' as const,
  resource: { group: '', resource: 'pods' },
  subresource,
  object,
});

test('adds not-ready then unreachable NoExecute tolerations of 300 s', async () => {
  const p = pod([{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }]);
  await defaultTolerationSeconds()(attrs(p));
  assert.deepEqual((p['spec'] as { tolerations: unknown[] }).tolerations, [
    { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    },
  ]);
});

test('existing tolerations (also empty key or effect) are respected; subresources untouched', async () => {
  const all = pod([{ operator: 'Exists' }]);
  await defaultTolerationSeconds()(attrs(all));
  assert.deepEqual((all['spec'] as { tolerations: unknown[] }).tolerations, [{ operator: 'Exists' }]);
  const some = pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }]);
  await defaultTolerationSeconds()(attrs(some));
  assert.equal((some['spec'] as { tolerations: unknown[] }).tolerations.length, 2);
  const sub = pod();
  await defaultTolerationSeconds()(attrs(sub, 'status'));
  assert.equal((sub['spec'] as { tolerations?: unknown[] }).tolerations, undefined);
});
