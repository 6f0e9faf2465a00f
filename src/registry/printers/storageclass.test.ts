import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { storageClassTable } from './storageclass.js';

const now = new Date('2024-05-01T12:00:00Z');

test('storageClassTable: default class suffix (GA or beta annotation), upstream fallbacks', () => {
  const sc = (annotations: Record<string, string>, extra: JsonObject = {}) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'std', annotations, creationTimestamp: '2024-05-01T11:59:00Z' },
    provisioner: 'kubernetes.io/no-provisioner',
    ...extra,
  });
  assert.deepEqual(
    storageClassTable.cells(sc({ 'storageclass.kubernetes.io/is-default-class': 'true' }), now),
    ['std (default)', 'kubernetes.io/no-provisioner', 'Delete', 'Immediate', false, '60s'],
  );
  assert.deepEqual(
    storageClassTable
      .cells(
        sc(
          { 'storageclass.beta.kubernetes.io/is-default-class': 'true' },
          { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true },
        ),
        now,
      )
      .slice(0, 5),
    ['std (default)', 'kubernetes.io/no-provisioner', 'Retain', 'WaitForFirstConsumer', true],
  );
  assert.equal(
    storageClassTable.cells(sc({ 'storageclass.kubernetes.io/is-default-class': 'yes' }), now)[0],
    'std',
  );
});
