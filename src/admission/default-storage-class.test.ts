import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { defaultStorageClassPlugin } from './default-storage-class.js';
import { objectAttrs, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const sc = (name: string, created: string, annotations?: Record<string, string>): StoredObject => ({
  group: 'storage.k8s.io',
  resource: 'storageclasses',
  object: {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, creationTimestamp: created, ...(annotations ? { annotations } : {}) },
    provisioner: 'x',
  },
});
const isDefault = { 'storageclass.kubernetes.io/is-default-class': 'true' };
const isBetaDefault = { 'storageclass.beta.kubernetes.io/is-default-class': 'true' };

const pvc = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'claim', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], ...spec },
});

const attrs = (object: KubeObject, operation: 'CREATE' | 'UPDATE' = 'CREATE', subresource = '') =>
  objectAttrs({
    operation,
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespace: 'ns',
    subresource,
    object,
  });

const classOf = (o: KubeObject): unknown => (o['spec'] as { storageClassName?: unknown }).storageClassName;

test('DefaultStorageClass is a create-only mutating plugin', () => {
  const p = defaultStorageClassPlugin(testDeps());
  assert.equal(p.name, 'DefaultStorageClass');
  assert.deepEqual([...p.operations], ['CREATE']);
  assert.equal(p.validate, undefined);
});

test('a claim without a class gets the default class (GA or beta annotation)', async () => {
  for (const ann of [isDefault, isBetaDefault]) {
    const deps = testDeps({
      objects: [sc('slow', '2023-01-01T00:00:00Z'), sc('fast', '2023-01-01T00:00:00Z', ann)],
    });
    const claim = pvc();
    await runPlugin(defaultStorageClassPlugin(deps), attrs(claim));
    assert.equal(classOf(claim), 'fast');
  }
});

test('several defaults: the newest wins, then the lowest name; "false" is not default', async () => {
  const deps = testDeps({
    objects: [
      sc('old', '2023-01-01T00:00:00Z', isDefault),
      sc('newer-b', '2023-03-01T00:00:00Z', isDefault),
      sc('newer-a', '2023-03-01T00:00:00Z', isBetaDefault),
      sc('newest-off', '2023-05-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'false' }),
    ],
  });
  const claim = pvc();
  await runPlugin(defaultStorageClassPlugin(deps), attrs(claim));
  assert.equal(classOf(claim), 'newer-a');
});

test('no default class: the claim is left as it is', async () => {
  const claim = pvc();
  await runPlugin(
    defaultStorageClassPlugin(testDeps({ objects: [sc('a', '2023-01-01T00:00:00Z')] })),
    attrs(claim),
  );
  assert.equal(classOf(claim), undefined);
});

test('a claim that names a class (even "" or by the beta annotation) is left alone', async () => {
  const deps = testDeps({ objects: [sc('fast', '2023-01-01T00:00:00Z', isDefault)] });
  const plugin = defaultStorageClassPlugin(deps);
  const empty = pvc({ storageClassName: '' });
  await runPlugin(plugin, attrs(empty));
  assert.equal(classOf(empty), '');
  const named = pvc({ storageClassName: 'gold' });
  await runPlugin(plugin, attrs(named));
  assert.equal(classOf(named), 'gold');
  const annotated = pvc({}, { 'volume.beta.kubernetes.io/storage-class': '' });
  await runPlugin(plugin, attrs(annotated));
  assert.equal(classOf(annotated), undefined);
});

test('updates, subresources and other resources are not defaulted', async () => {
  const deps = testDeps({ objects: [sc('fast', '2023-01-01T00:00:00Z', isDefault)] });
  const plugin = defaultStorageClassPlugin(deps);
  const updated = pvc();
  await runPlugin(plugin, attrs(updated, 'UPDATE'));
  assert.equal(classOf(updated), undefined);
  const status = pvc();
  await runPlugin(plugin, attrs(status, 'CREATE', 'status'));
  assert.equal(classOf(status), undefined);
});

test('a failing lookup is refused as Forbidden', async () => {
  const deps = testDeps();
  const plugin = defaultStorageClassPlugin({
    ...deps,
    lookup: { ...deps.lookup, list: () => Promise.reject(new Error('cache not ready')) },
  });
  await assert.rejects(runPlugin(plugin, attrs(pvc())), (err) => {
    assert.deepEqual(statusOf(err), {
      code: 403,
      message: 'persistentvolumeclaims "claim" is forbidden: cache not ready',
    });
    return true;
  });
});
