import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csiStorageCapacityTable } from './csistoragecapacity.js';

test('csiStorageCapacityTable: no age column, <unset> capacity', () => {
  assert.deepEqual(
    csiStorageCapacityTable.columns.map((c) => c.name),
    ['Name', 'StorageClassName', 'Capacity'],
  );
  const csc = (capacity?: string) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIStorageCapacity',
    metadata: { name: 'c', namespace: 'kube-system' },
    storageClassName: 'fast',
    ...(capacity === undefined ? {} : { capacity }),
  });
  const now = new Date();
  assert.deepEqual(csiStorageCapacityTable.cells(csc(), now), ['c', 'fast', '<unset>']);
  assert.deepEqual(csiStorageCapacityTable.cells(csc('1Gi'), now), ['c', 'fast', '1Gi']);
});
