import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priorityLevelConfigurationTable } from './prioritylevelconfiguration.js';

const now = new Date('2024-05-01T12:00:00Z');
const meta = (name: string) => ({ name, creationTimestamp: '2024-05-01T11:00:00Z' });

test('priorityLevelConfigurationTable: type, shares and queuing, <none> where absent', () => {
  assert.deepEqual(
    priorityLevelConfigurationTable.columns.map((c) => [c.name, c.type]),
    [
      ['Name', 'string'],
      ['Type', 'string'],
      ['NominalConcurrencyShares', 'string'],
      ['Queues', 'string'],
      ['HandSize', 'string'],
      ['QueueLengthLimit', 'string'],
      ['Age', 'string'],
    ],
  );
  const base = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'PriorityLevelConfiguration' };
  assert.deepEqual(
    priorityLevelConfigurationTable.cells(
      { ...base, metadata: meta('exempt'), spec: { type: 'Exempt' } },
      now,
    ),
    ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '60m'],
  );
  const reject = {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } },
  };
  assert.deepEqual(
    priorityLevelConfigurationTable.cells({ ...base, metadata: meta('catch-all'), spec: reject }, now),
    ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>', '60m'],
  );
  const queue = {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 30,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
    },
  };
  assert.deepEqual(
    priorityLevelConfigurationTable.cells({ ...base, metadata: meta('system'), spec: queue }, now),
    ['system', 'Limited', 30, 64, 6, 50, '60m'],
  );
});
