import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../../util/json.js';
import { defaultCSIDriver, defaultStorageClass, defaultVolumeAttachment } from './defaults.js';

test('StorageClass defaults: Delete and Immediate, set values kept', () => {
  const sc: JsonObject = { provisioner: 'p' };
  defaultStorageClass(sc);
  assert.deepEqual(sc, { provisioner: 'p', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  const kept: JsonObject = { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' };
  defaultStorageClass(kept);
  assert.deepEqual(kept, { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
});

test('CSIDriver defaults (v1.27 gates: seLinuxMount false), empty modes become Persistent', () => {
  const d: JsonObject = { spec: { attachRequired: false, volumeLifecycleModes: [] } };
  defaultCSIDriver(d);
  assert.deepEqual(d['spec'], {
    attachRequired: false,
    podInfoOnMount: false,
    storageCapacity: false,
    fsGroupPolicy: 'ReadWriteOnceWithFSType',
    volumeLifecycleModes: ['Persistent'],
    requiresRepublish: false,
    seLinuxMount: false,
  });
});

test('VolumeAttachment defaults apply only to inline volume sources', () => {
  const va: JsonObject = {
    spec: {
      source: { inlineVolumeSpec: { rbd: { image: 'i', monitors: ['m'] }, hostPath: { path: '/x' } } },
    },
  };
  defaultVolumeAttachment(va);
  assert.deepEqual(va, {
    spec: {
      source: {
        inlineVolumeSpec: {
          rbd: { image: 'i', monitors: ['m'], pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
          hostPath: { path: '/x', type: '' },
        },
      },
    },
  });
  const plain: JsonObject = { spec: { source: { persistentVolumeName: 'pv' } } };
  defaultVolumeAttachment(plain);
  assert.deepEqual(plain, { spec: { source: { persistentVolumeName: 'pv' } } });
});
