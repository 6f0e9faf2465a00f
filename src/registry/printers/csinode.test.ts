import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csiNodeTable } from './csinode.js';

test('csiNodeTable: the number of drivers', () => {
  const node = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name: 'n1', creationTimestamp: '2024-05-01T11:59:30Z' },
    spec: {
      drivers: [
        { name: 'a', nodeID: '1' },
        { name: 'b', nodeID: '2' },
      ],
    },
  };
  assert.deepEqual(csiNodeTable.cells(node, new Date('2024-05-01T12:00:00Z')), ['n1', 2, '30s']);
  assert.deepEqual(csiNodeTable.columns[1], {
    name: 'Drivers',
    type: 'integer',
    format: '',
    description: 'Drivers indicates the number of CSI drivers registered on the node',
    priority: 0,
  });
});
