import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import type { JsonValue } from '../util/json.js';
import {
  podTolerationRestrictionConfig,
  podTolerationRestrictionPlugin,
} from './pod-toleration-restriction.js';
import { objectAttrs, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const ns = (name: string, annotations?: Record<string, string>): StoredObject => ({
  group: '',
  resource: 'namespaces',
  object: {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, ...(annotations ? { annotations } : {}) },
  },
});
const defaults = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const whitelist = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';

const memoryPressure = {
  key: 'node.kubernetes.io/memory-pressure',
  operator: 'Exists',
  effect: 'NoSchedule',
};
const gpu = { key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' };
const anyGpu = { key: 'gpu', operator: 'Exists' };
const db = { key: 'db', operator: 'Exists', effect: 'NoSchedule' };

const objects = [
  ns('plain'),
  ns('defaults', { [defaults]: JSON.stringify([gpu]) }),
  ns('empty-defaults', { [defaults]: '' }),
  ns('listed', { [whitelist]: JSON.stringify([anyGpu]) }),
  ns('open', { [whitelist]: '' }),
  ns('bad', { [defaults]: '[{"tolerationSeconds":"5"}]' }),
];
const config = {
  PodTolerationRestriction: {
    apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1',
    kind: 'Configuration',
    default: [{ key: 'cluster-default', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
    whitelist: [anyGpu, { key: 'cluster-default', operator: 'Exists' }, memoryPressure],
  },
};

const pod = (tolerations?: JsonValue[], burstable = false): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec: {
    containers: [
      { name: 'c', image: 'i', ...(burstable ? { resources: { requests: { cpu: '100m' } } } : {}) },
    ],
    ...(tolerations ? { tolerations } : {}),
  },
});
const write = (
  namespace: string,
  object: KubeObject,
  operation: 'CREATE' | 'UPDATE' = 'CREATE',
  subresource = '',
) =>
  objectAttrs({
    operation,
    resource: 'pods',
    kind: 'Pod',
    namespace,
    subresource,
    object,
    ...(operation === 'UPDATE' ? { oldObject: object } : {}),
  });
const tolerationsOf = (p: KubeObject): unknown => (p['spec'] as { tolerations?: unknown }).tolerations;

const withConfig = podTolerationRestrictionPlugin(testDeps({ objects, config }));
const noConfig = podTolerationRestrictionPlugin(testDeps({ objects }));

async function refused(
  plugin: typeof withConfig,
  namespace: string,
  p: KubeObject,
  code: number,
  message: string,
): Promise<void> {
  await assert.rejects(runPlugin(plugin, write(namespace, p)), (err) => {
    assert.deepEqual(statusOf(err), { code, message });
    return true;
  });
}

test('PodTolerationRestriction mutates and validates pod creates and updates', () => {
  assert.equal(withConfig.name, 'PodTolerationRestriction');
  assert.deepEqual([...withConfig.operations], ['CREATE', 'UPDATE']);
});

test('namespace default tolerations are merged into a created pod', async () => {
  const p = pod([{ key: 'mine', operator: 'Exists' }]);
  await runPlugin(noConfig, write('defaults', p));
  assert.deepEqual(tolerationsOf(p), [{ key: 'mine', operator: 'Exists' }, gpu]);
  // A pod toleration that is a superset of the default keeps only itself.
  const wide = pod([anyGpu]);
  await runPlugin(noConfig, write('defaults', wide));
  assert.deepEqual(tolerationsOf(wide), [anyGpu]);
});

test('without the annotation the configured default applies; an empty annotation means none', async () => {
  const p = pod();
  await runPlugin(withConfig, write('plain', p));
  assert.deepEqual(tolerationsOf(p), config.PodTolerationRestriction.default);
  const e = pod();
  await runPlugin(withConfig, write('empty-defaults', e));
  assert.equal(tolerationsOf(e), undefined);
});

test('non-BestEffort pods also tolerate memory pressure, on updates too; defaults only on create', async () => {
  const p = pod(undefined, true);
  await runPlugin(noConfig, write('defaults', p));
  assert.deepEqual(tolerationsOf(p), [gpu, memoryPressure]);
  const u = pod(undefined, true);
  await runPlugin(noConfig, write('defaults', u, 'UPDATE'));
  assert.deepEqual(tolerationsOf(u), [memoryPressure]);
});

test('tolerations outside the namespace whitelist are refused (a 500, as upstream)', async () => {
  await runPlugin(noConfig, write('listed', pod([gpu])));
  await refused(
    noConfig,
    'listed',
    pod([db]),
    500,
    'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
  );
  // The merged memory-pressure toleration is checked too.
  await refused(
    noConfig,
    'listed',
    pod([gpu], true),
    500,
    'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
  );
});

test('without a namespace whitelist the configured one applies; an empty one allows all', async () => {
  await runPlugin(withConfig, write('plain', pod([gpu], true)));
  await refused(
    withConfig,
    'plain',
    pod([db]),
    500,
    'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist',
  );
  await runPlugin(withConfig, write('open', pod([db])));
  await runPlugin(noConfig, write('plain', pod([db])));
});

test('a missing namespace is its NotFound; a bad annotation a 500', async () => {
  await refused(noConfig, 'gone', pod(), 404, 'namespaces "gone" not found');
  await refused(
    noConfig,
    'bad',
    pod(),
    500,
    'json: cannot unmarshal string into Go struct field Toleration.tolerationSeconds of type int64',
  );
});

test('the configuration is read; a wrongly typed list is an error', () => {
  assert.deepEqual(podTolerationRestrictionConfig(undefined), { default: undefined, whitelist: undefined });
  assert.deepEqual(podTolerationRestrictionConfig({ whitelist: [null, { key: 'a', value: '' }] }), {
    default: undefined,
    whitelist: [{}, { key: 'a' }],
  });
  assert.throws(() => podTolerationRestrictionConfig({ default: { key: 'a' } }), {
    message:
      'PodTolerationRestriction configuration: json: cannot unmarshal object into Go value of type []v1.Toleration',
  });
});

test('subresources are left alone', async () => {
  const p = pod([db], true);
  await runPlugin(noConfig, write('gone', p, 'UPDATE', 'status'));
  assert.deepEqual(tolerationsOf(p), [db]);
});
