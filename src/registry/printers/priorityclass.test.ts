import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priorityClassTable } from './priorityclass.js';

const now = new Date('2024-05-01T12:00:00Z');

test('priorityClassTable: name, value, global default, age', () => {
  assert.deepEqual(
    priorityClassTable.columns.map((c) => [c.name, c.type, c.priority]),
    [
      ['Name', 'string', 0],
      ['Value', 'integer', 0],
      ['Global-Default', 'boolean', 0],
      ['Age', 'string', 0],
    ],
  );
  const pc = {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical', creationTimestamp: '2024-05-01T11:00:00Z' },
    value: 2000001000,
  };
  assert.deepEqual(priorityClassTable.cells(pc, now), ['system-node-critical', 2000001000, false, '60m']);
  assert.deepEqual(priorityClassTable.cells({ ...pc, globalDefault: true, value: -5 }, now).slice(1, 3), [
    -5,
    true,
  ]);
});
