import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { persistentVolumeClaimResizePlugin } from './persistent-volume-claim-resize.js';
import { attrsOf, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const sc = (name: string, allowVolumeExpansion?: boolean): StoredObject => ({
  group: 'storage.k8s.io',
  resource: 'storageclasses',
  object: {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: 'x',
    ...(allowVolumeExpansion !== undefined ? { allowVolumeExpansion } : {}),
  },
});
const deps = testDeps({ objects: [sc('gold', true), sc('silver', false), sc('bronze')] });

interface ClaimOptions {
  size?: string;
  cls?: string;
  phase?: string;
  betaClass?: string;
}
const pvc = ({ size, cls, phase = 'Bound', betaClass }: ClaimOptions): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: {
    name: 'data',
    namespace: 'ns',
    ...(betaClass !== undefined
      ? { annotations: { 'volume.beta.kubernetes.io/storage-class': betaClass } }
      : {}),
  },
  spec: {
    ...(cls !== undefined ? { storageClassName: cls } : {}),
    resources: size !== undefined ? { requests: { storage: size } } : {},
  },
  status: { phase },
});

const update = (oldObject: KubeObject, object: KubeObject, subresource = '') =>
  attrsOf({
    operation: 'UPDATE',
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespace: 'ns',
    subresource,
    object,
    oldObject,
  });

const plugin = persistentVolumeClaimResizePlugin(deps);
const notResizable =
  'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

async function refused(oldObject: KubeObject, object: KubeObject, message: string): Promise<void> {
  await assert.rejects(runPlugin(plugin, update(oldObject, object)), (err) => {
    assert.deepEqual(statusOf(err), { code: 403, message });
    return true;
  });
}

test('PersistentVolumeClaimResize validates updates only', () => {
  assert.equal(plugin.name, 'PersistentVolumeClaimResize');
  assert.deepEqual([...plugin.operations], ['UPDATE']);
  assert.equal(plugin.admit, undefined);
});

test('growing a bound claim of an expandable class is allowed (also 1Gi to 1025Mi)', async () => {
  await runPlugin(plugin, update(pvc({ size: '1Gi', cls: 'gold' }), pvc({ size: '2Gi', cls: 'gold' })));
  await runPlugin(plugin, update(pvc({ size: '1Gi', cls: 'gold' }), pvc({ size: '1025Mi', cls: 'gold' })));
  await runPlugin(
    plugin,
    update(pvc({ size: '1Gi', betaClass: 'gold' }), pvc({ size: '2Gi', betaClass: 'gold', cls: 'silver' })),
  );
});

test('keeping or shrinking the size is not this plugin’s business', async () => {
  await runPlugin(
    plugin,
    update(pvc({ size: '2Gi', cls: 'silver', phase: 'Pending' }), pvc({ size: '2Gi' })),
  );
  await runPlugin(
    plugin,
    update(pvc({ size: '2Gi', cls: 'silver' }), pvc({ size: '2048Mi', cls: 'silver' })),
  );
  await runPlugin(plugin, update(pvc({ size: '2Gi' }), pvc({ size: '1Gi' })));
});

test('growing an unbound claim is refused', async () => {
  await refused(
    pvc({ size: '1Gi', cls: 'gold', phase: 'Pending' }),
    pvc({ size: '2Gi', cls: 'gold', phase: 'Pending' }),
    'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded',
  );
});

test('growing without an expandable class is refused with upstream’s text', async () => {
  await refused(pvc({ size: '1Gi', cls: 'silver' }), pvc({ size: '2Gi', cls: 'silver' }), notResizable);
  await refused(pvc({ size: '1Gi', cls: 'bronze' }), pvc({ size: '2Gi', cls: 'bronze' }), notResizable);
  await refused(pvc({ size: '1Gi', cls: 'missing' }), pvc({ size: '2Gi', cls: 'missing' }), notResizable);
  await refused(pvc({ size: '1Gi' }), pvc({ size: '2Gi' }), notResizable);
  await refused(pvc({ size: '1Gi', cls: '' }), pvc({ size: '2Gi', cls: '' }), notResizable);
  await refused(pvc({ size: '1Gi', cls: 'gold' }), pvc({ size: '2Gi', cls: 'silver' }), notResizable);
  // The beta annotation wins over spec.storageClassName.
  await refused(
    pvc({ size: '1Gi', cls: 'gold', betaClass: 'silver' }),
    pvc({ size: '2Gi', cls: 'gold', betaClass: 'silver' }),
    notResizable,
  );
  // No request at all counts as zero.
  await refused(pvc({ cls: 'silver' }), pvc({ size: '1', cls: 'silver' }), notResizable);
});

test('subresources are left alone', async () => {
  await runPlugin(
    plugin,
    update(pvc({ size: '1Gi', cls: 'silver' }), pvc({ size: '2Gi', cls: 'silver' }), 'status'),
  );
});
