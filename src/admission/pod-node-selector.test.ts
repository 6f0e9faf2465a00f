import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { podNodeSelectorConfig, podNodeSelectorPlugin } from './pod-node-selector.js';
import { objectAttrs, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const ns = (name: string, selector?: string): StoredObject => ({
  group: '',
  resource: 'namespaces',
  object: {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      ...(selector !== undefined
        ? { annotations: { 'scheduler.alpha.kubernetes.io/node-selector': selector } }
        : {}),
    },
  },
});

const config = {
  PodNodeSelector: {
    podNodeSelectorPluginConfig: {
      clusterDefaultNodeSelector: 'env=dev',
      restricted: 'env=prod, tier=web',
      broken: 'env',
    },
  },
};
const deps = testDeps({
  objects: [
    ns('plain'),
    ns('annotated', 'env=prod,zone=a'),
    ns('empty', ''),
    ns('restricted', 'env=prod'),
    ns('broken'),
    ns('bad-annotation', 'Bad Key=x'),
  ],
  config,
});
const plugin = podNodeSelectorPlugin(deps);

const pod = (
  nodeSelector?: Record<string, string>,
  meta: Record<string, unknown> = { name: 'web' },
): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta,
    spec: { containers: [], ...(nodeSelector ? { nodeSelector } : {}) },
  }) as KubeObject;
const create = (namespace: string, object: KubeObject, subresource = '') =>
  objectAttrs({ resource: 'pods', kind: 'Pod', namespace, subresource, object });
const selectorOf = (p: KubeObject): unknown => (p['spec'] as { nodeSelector?: unknown }).nodeSelector;

async function refused(namespace: string, p: KubeObject, code: number, message: string): Promise<void> {
  await assert.rejects(runPlugin(plugin, create(namespace, p)), (err) => {
    assert.deepEqual(statusOf(err), { code, message });
    return true;
  });
}

test('PodNodeSelector mutates and validates pod creates', () => {
  assert.equal(plugin.name, 'PodNodeSelector');
  assert.deepEqual([...plugin.operations], ['CREATE']);
});

test('the config map is read case-insensitively, strings only', () => {
  assert.deepEqual(podNodeSelectorConfig({ PodNodeSelectorPluginConfig: { a: 'x=y', b: 1 } }), { a: 'x=y' });
  assert.deepEqual(podNodeSelectorConfig(undefined), {});
});

test('the namespace annotation is merged into the pod’s selector', async () => {
  const p = pod({ disk: 'ssd', env: 'prod' });
  await runPlugin(plugin, create('annotated', p));
  assert.deepEqual(selectorOf(p), { disk: 'ssd', env: 'prod', zone: 'a' });
});

test('without the annotation the cluster default applies; an empty annotation means none', async () => {
  const p = pod();
  await runPlugin(plugin, create('plain', p));
  assert.deepEqual(selectorOf(p), { env: 'dev' });
  const e = pod();
  await runPlugin(plugin, create('empty', e));
  assert.equal(selectorOf(e), undefined);
});

test('a conflicting pod selector is refused', async () => {
  await refused(
    'annotated',
    pod({ env: 'dev' }),
    403,
    'pods "web" is forbidden: pod node label selector conflicts with its namespace node label selector',
  );
  // Before name generation the pod has no name yet.
  await refused(
    'plain',
    pod({ env: 'prod' }, { generateName: 'web-' }),
    403,
    'pods is forbidden: pod node label selector conflicts with its namespace node label selector',
  );
});

test('the namespace whitelist bounds the merged selector', async () => {
  const ok = pod({ tier: 'web' });
  await runPlugin(plugin, create('restricted', ok));
  assert.deepEqual(selectorOf(ok), { env: 'prod', tier: 'web' });
  await refused(
    'restricted',
    pod({ tier: 'db' }),
    403,
    'pods "web" is forbidden: pod node label selector labels conflict with its namespace whitelist',
  );
});

test('missing namespaces and bad selectors fail as upstream', async () => {
  await refused('nowhere', pod(), 500, 'Internal error occurred: namespace nowhere does not exist');
  await refused(
    'bad-annotation',
    pod(),
    500,
    "<nil>: Invalid value: \"Bad Key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  );
  await refused('broken', pod(), 500, 'invalid selector: [env]');
});

test('subresources and updates are left alone', async () => {
  await runPlugin(plugin, create('nowhere', pod(), 'binding'));
  await runPlugin(plugin, { ...create('nowhere', pod()), operation: 'UPDATE' });
});
