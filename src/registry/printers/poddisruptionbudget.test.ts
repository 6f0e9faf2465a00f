import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { podDisruptionBudgetTable } from './poddisruptionbudget.js';

const now = new Date('2024-05-01T12:00:00Z');

function pdb(spec: KubeObject['spec'], status?: KubeObject['status']): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2024-04-30T12:00:00Z' },
    spec: spec ?? {},
    ...(status === undefined ? {} : { status }),
  };
}

test('podDisruptionBudgetTable: int-or-string budgets, N/A when unset, allowed disruptions', () => {
  assert.deepEqual(
    podDisruptionBudgetTable.columns.map((c) => [c.name, c.type]),
    [
      ['Name', 'string'],
      ['Min Available', 'string'],
      ['Max Unavailable', 'string'],
      ['Allowed Disruptions', 'integer'],
      ['Age', 'string'],
    ],
  );
  assert.deepEqual(podDisruptionBudgetTable.cells(pdb({ minAvailable: 2 }, { disruptionsAllowed: 1 }), now), [
    'web',
    '2',
    'N/A',
    1,
    '24h',
  ]);
  assert.deepEqual(podDisruptionBudgetTable.cells(pdb({ maxUnavailable: '25%' }), now).slice(1, 4), [
    'N/A',
    '25%',
    0,
  ]);
});
