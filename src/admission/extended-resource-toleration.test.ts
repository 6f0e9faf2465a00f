import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { extendedResourceTolerationPlugin } from './extended-resource-toleration.js';
import { attrsOf, runPlugin, testDeps } from './testing/fake-admission-deps.js';

const container = (requests: Record<string, string>) => ({ name: 'c', image: 'i', resources: { requests } });
const pod = (spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns' }, spec }) as KubeObject;
const write = (object: KubeObject, subresource = '') =>
  attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', subresource, object });
const tolerations = (p: KubeObject): unknown => (p['spec'] as { tolerations?: unknown }).tolerations;

const plugin = extendedResourceTolerationPlugin(testDeps());

test('ExtendedResourceToleration mutates pod creates and updates', () => {
  assert.equal(plugin.name, 'ExtendedResourceToleration');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE']);
  assert.equal(plugin.validate, undefined);
});

test('each extended resource requested gets an Exists/NoSchedule toleration, sorted', async () => {
  const p = pod({
    containers: [container({ cpu: '1', 'example.com/gpu': '1', 'kubernetes.io/native': '1' })],
    initContainers: [container({ 'example.com/fpga': '1', 'example.com/gpu': '2', 'hugepages-2Mi': '1Mi' })],
    tolerations: [{ key: 'other', operator: 'Exists' }],
  });
  await runPlugin(plugin, write(p));
  assert.deepEqual(tolerations(p), [
    { key: 'other', operator: 'Exists' },
    { key: 'example.com/fpga', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
  ]);
});

test('a matching toleration is replaced in place, not repeated', async () => {
  const p = pod({
    containers: [container({ 'example.com/gpu': '1' })],
    tolerations: [
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 },
      { key: 'z', operator: 'Exists' },
    ],
  });
  await runPlugin(plugin, write(p));
  assert.deepEqual(tolerations(p), [
    { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'z', operator: 'Exists' },
  ]);
});

test('native resources, requests.* names and subresources add nothing', async () => {
  const p = pod({ containers: [container({ cpu: '1', memory: '1Gi', 'requests.example.com/x': '1' })] });
  await runPlugin(plugin, write(p));
  assert.equal(tolerations(p), undefined);
  const s = pod({ containers: [container({ 'example.com/gpu': '1' })] });
  await runPlugin(plugin, write(s, 'status'));
  assert.equal(tolerations(s), undefined);
});
