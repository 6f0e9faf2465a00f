import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clusterTrustBundleTable } from './clustertrustbundle.js';

test('clusterTrustBundleTable: name and signer, no age', () => {
  assert.deepEqual(
    clusterTrustBundleTable.columns.map((c) => [c.name, c.type, c.format]),
    [
      ['Name', 'string', 'name'],
      ['SignerName', 'string', ''],
    ],
  );
  const b = {
    apiVersion: 'certificates.k8s.io/v1alpha1',
    kind: 'ClusterTrustBundle',
    metadata: { name: 'x' },
  };
  assert.deepEqual(clusterTrustBundleTable.cells(b, new Date()), ['x', '<none>']);
  assert.deepEqual(
    clusterTrustBundleTable.cells({ ...b, spec: { signerName: 'example.com/s' } }, new Date()),
    ['x', 'example.com/s'],
  );
});
