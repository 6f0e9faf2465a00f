import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runtimeClassTable } from './runtimeclass.js';

test('runtimeClassTable: name, handler, age; the handler column has upstream empty description', () => {
  assert.deepEqual(
    runtimeClassTable.columns.map((c) => c.name),
    ['Name', 'Handler', 'Age'],
  );
  assert.equal(runtimeClassTable.columns[1]!.description, '');
  const rc = {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'gvisor', creationTimestamp: '2024-05-01T11:59:30Z' },
    handler: 'runsc',
  };
  assert.deepEqual(runtimeClassTable.cells(rc, new Date('2024-05-01T12:00:00Z')), ['gvisor', 'runsc', '30s']);
});
