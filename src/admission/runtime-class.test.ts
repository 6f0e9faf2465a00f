import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { runtimeClassPlugin } from './runtime-class.js';
import { objectAttrs, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const rc = (name: string, rest: Record<string, unknown> = {}): StoredObject => ({
  group: 'node.k8s.io',
  resource: 'runtimeclasses',
  object: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler: name, ...rest },
});

const deps = testDeps({
  objects: [
    rc('plain'),
    rc('kata', { overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } }),
    rc('empty-overhead', { overhead: {} }),
    rc('gvisor', {
      scheduling: {
        nodeSelector: { sandbox: 'gvisor', zone: 'a' },
        tolerations: [
          { key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' },
          { key: 'dedicated', operator: 'Exists' },
        ],
      },
    }),
  ],
  liveOnly: [rc('fresh', { overhead: { podFixed: { cpu: '1' } } })],
});
const plugin = runtimeClassPlugin(deps);

const pod = (spec: Record<string, unknown>, meta: Record<string, unknown> = { name: 'web' }): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', ...meta },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});
const create = (object: KubeObject, subresource = '') =>
  objectAttrs({ resource: 'pods', kind: 'Pod', namespace: 'ns', subresource, object });
const spec = (p: KubeObject) => p['spec'] as Record<string, unknown>;

async function refused(p: KubeObject, message: string): Promise<void> {
  await assert.rejects(runPlugin(plugin, create(p)), (err) => {
    assert.deepEqual(statusOf(err), { code: 403, message });
    return true;
  });
}

test('RuntimeClass mutates and validates pod creates', () => {
  assert.equal(plugin.name, 'RuntimeClass');
  assert.deepEqual([...plugin.operations], ['CREATE']);
  assert.ok(plugin.admit !== undefined && plugin.validate !== undefined);
});

test('pods without a runtimeClassName, or of a plain class, pass unchanged', async () => {
  for (const p of [pod({}), pod({ runtimeClassName: 'plain' })]) {
    const before = JSON.stringify(p);
    await runPlugin(plugin, create(p));
    assert.equal(JSON.stringify(p), before);
  }
});

test('the class overhead is set on the pod (and a matching one is accepted)', async () => {
  const p = pod({ runtimeClassName: 'kata' });
  await runPlugin(plugin, create(p));
  assert.deepEqual(spec(p)['overhead'], { cpu: '250m', memory: '120Mi' });
  const same = pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } });
  await runPlugin(plugin, create(same));
  assert.deepEqual(spec(same)['overhead'], { cpu: '250m', memory: '120Mi' });
  const none = pod({ runtimeClassName: 'empty-overhead' });
  await runPlugin(plugin, create(none));
  assert.equal(spec(none)['overhead'], undefined);
});

test('a pod bringing a different overhead is refused', async () => {
  await refused(
    pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }),
    `pods "web" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
  );
});

test('validation refuses an overhead without a class defining one, and a changed one', async () => {
  const validate = plugin.validate!;
  await assert.rejects(Promise.resolve(validate(create(pod({ overhead: { cpu: '1' } })))), (err) => {
    assert.deepEqual(statusOf(err), {
      code: 403,
      message:
        'pods "web" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    });
    return true;
  });
  await assert.rejects(
    Promise.resolve(validate(create(pod({ runtimeClassName: 'kata', overhead: { cpu: '250m' } })))),
    (err) => {
      assert.equal(
        statusOf(err).message,
        `pods "web" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
      );
      return true;
    },
  );
  await validate(create(pod({ runtimeClassName: 'kata', overhead: { memory: '120Mi', cpu: '250m' } })));
});

test('a missing class is refused; the live read behind the cache is consulted first', async () => {
  await refused(
    pod({ runtimeClassName: 'nope' }, { generateName: 'web-' }),
    'pods "web-" is forbidden: pod rejected: RuntimeClass "nope" not found',
  );
  const p = pod({ runtimeClassName: 'fresh' });
  await runPlugin(plugin, create(p));
  assert.deepEqual(spec(p)['overhead'], { cpu: '1' });
});

test('scheduling: node selector merged, tolerations merged keeping supersets', async () => {
  const p = pod({
    runtimeClassName: 'gvisor',
    nodeSelector: { zone: 'a', disk: 'ssd' },
    tolerations: [
      { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'other', operator: 'Exists' },
    ],
  });
  await runPlugin(plugin, create(p));
  assert.deepEqual(spec(p)['nodeSelector'], { disk: 'ssd', sandbox: 'gvisor', zone: 'a' });
  assert.deepEqual(spec(p)['tolerations'], [
    { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'other', operator: 'Exists' },
    { key: 'dedicated', operator: 'Exists' },
  ]);
  const bare = pod({ runtimeClassName: 'gvisor' });
  await runPlugin(plugin, create(bare));
  assert.deepEqual(spec(bare)['nodeSelector'], { sandbox: 'gvisor', zone: 'a' });
  assert.deepEqual(spec(bare)['tolerations'], [
    { key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' },
    { key: 'dedicated', operator: 'Exists' },
  ]);
});

test('a node selector conflict is refused with upstream’s text', async () => {
  await refused(
    pod({ runtimeClassName: 'gvisor', nodeSelector: { zone: 'b' } }),
    'pods "web" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[zone] = a; pod.spec.nodeSelector[zone] = b',
  );
});

test('subresources, updates and other resources are left alone', async () => {
  const p = pod({ runtimeClassName: 'nope' });
  await runPlugin(plugin, create(p, 'binding'));
  await runPlugin(plugin, { ...create(p), operation: 'UPDATE' });
  await runPlugin(plugin, { ...create(p), resource: { ...create(p).resource, resource: 'podtemplates' } });
});
