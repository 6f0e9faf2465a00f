import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { chainAdmission } from './chain.js';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.js';

const object = (kind: string, finalizers?: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name: 'x', ...(finalizers !== undefined ? { finalizers } : {}) },
});
const attrs = (
  resource: string,
  obj: KubeObject,
  operation: 'CREATE' | 'UPDATE' = 'CREATE',
  subresource = '',
) => ({
  operation,
  resource: { group: '', resource },
  subresource,
  object: obj,
});

test('#7 StorageObjectInUseProtection adds the protection finalizers on create', async () => {
  const plugin = storageObjectInUseProtection();
  const pvc = object('PersistentVolumeClaim', ['a']);
  await plugin(attrs('persistentvolumeclaims', pvc));
  assert.deepEqual(pvc.metadata.finalizers, ['a', 'kubernetes.io/pvc-protection']);
  const pv = object('PersistentVolume');
  await plugin(attrs('persistentvolumes', pv));
  assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
  // Already there: not twice.
  await plugin(attrs('persistentvolumes', pv));
  assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection']);
});

test('#7 StorageObjectInUseProtection leaves updates, subresources and other kinds alone', async () => {
  const plugin = storageObjectInUseProtection();
  for (const a of [
    attrs('persistentvolumeclaims', object('PersistentVolumeClaim'), 'UPDATE'),
    attrs('persistentvolumeclaims', object('PersistentVolumeClaim'), 'CREATE', 'status'),
    attrs('pods', object('Pod')),
  ]) {
    await plugin(a);
    assert.equal(a.object.metadata.finalizers, undefined);
  }
});

test('#7 chained admission runs every plugin in order', async () => {
  const seen: string[] = [];
  const chained = chainAdmission<string>([
    (a) => Promise.resolve(void seen.push(`1${a}`)),
    (a) => Promise.resolve(void seen.push(`2${a}`)),
  ]);
  await chained('x');
  assert.deepEqual(seen, ['1x', '2x']);
});
