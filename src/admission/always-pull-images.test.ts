import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { alwaysPullImagesPlugin } from './always-pull-images.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';

const pod = (spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns' }, spec }) as KubeObject;
const c = (image: string, imagePullPolicy?: string) => ({
  name: image,
  image,
  ...(imagePullPolicy !== undefined ? { imagePullPolicy } : {}),
});

const write = (object: KubeObject, oldObject?: KubeObject, subresource = '') =>
  attrsOf({
    operation: oldObject ? 'UPDATE' : 'CREATE',
    resource: 'pods',
    kind: 'Pod',
    namespace: 'ns',
    subresource,
    object,
    ...(oldObject ? { oldObject } : {}),
  });
const policies = (p: KubeObject): unknown[] =>
  ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) =>
    ((p['spec'] as Record<string, { imagePullPolicy?: string }[] | undefined>)[k] ?? []).map(
      (x) => x.imagePullPolicy,
    ),
  );

const plugin = alwaysPullImagesPlugin(testDeps());

test('AlwaysPullImages mutates and validates creates and updates', () => {
  assert.equal(plugin.name, 'AlwaysPullImages');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE']);
});

test('every init, regular and ephemeral container is set to Always', async () => {
  const p = pod({
    initContainers: [c('init', 'IfNotPresent')],
    containers: [c('a', 'Never'), c('b')],
    ephemeralContainers: [c('debug', 'IfNotPresent')],
  });
  await runPlugin(plugin, write(p));
  assert.deepEqual(policies(p), ['Always', 'Always', 'Always', 'Always']);
});

test('validation refuses containers not set to Always (aggregated, as a 500)', async () => {
  const p = pod({
    initContainers: [c('init', 'Never')],
    containers: [c('a', 'IfNotPresent'), c('b', 'Always')],
  });
  await assert.rejects(
    async () => plugin.validate!(write(p)),
    (err) => {
      assert.deepEqual(statusOf(err), {
        code: 500,
        message:
          '[pods "web" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always", ' +
          'pods "web" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"]',
      });
      return true;
    },
  );
  await assert.rejects(
    async () => plugin.validate!(write(pod({ containers: [c('a')] }))),
    (err) => {
      assert.equal(
        statusOf(err).message,
        'pods "web" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "": supported values: "Always"',
      );
      return true;
    },
  );
  await plugin.validate!(write(pod({ containers: [c('a', 'Always')] })));
});

test('an update bringing a new image is mutated; one without new images is left alone', async () => {
  const old = pod({ containers: [c('a', 'IfNotPresent'), c('b', 'IfNotPresent')] });
  const same = pod({ containers: [c('b', 'IfNotPresent'), c('a', 'IfNotPresent')] });
  await runPlugin(plugin, write(same, old));
  assert.deepEqual(policies(same), ['IfNotPresent', 'IfNotPresent']);
  const changed = pod({ containers: [c('a', 'IfNotPresent'), c('new', 'IfNotPresent')] });
  await runPlugin(plugin, write(changed, old));
  assert.deepEqual(policies(changed), ['Always', 'Always']);
});

test('subresources are left alone', async () => {
  const p = pod({ containers: [c('a', 'Never')], ephemeralContainers: [c('debug', 'Never')] });
  await runPlugin(plugin, write(p, pod({ containers: [c('a', 'Never')] }), 'ephemeralcontainers'));
  assert.deepEqual(policies(p), ['Never', 'Never']);
});
