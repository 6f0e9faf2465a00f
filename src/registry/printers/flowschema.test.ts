import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { flowSchemaTable } from './flowschema.js';

const now = new Date('2024-05-01T12:00:00Z');
const meta = (name: string) => ({ name, creationTimestamp: '2024-05-01T11:00:00Z' });

test('flowSchemaTable: priority level, precedence, distinguisher, age, missing PL', () => {
  assert.deepEqual(
    flowSchemaTable.columns.map((c) => [c.name, c.type, c.format, c.priority]),
    [
      ['Name', 'string', 'name', 0],
      ['PriorityLevel', 'string', '', 0],
      ['MatchingPrecedence', 'string', '', 0],
      ['DistinguisherMethod', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['MissingPL', 'string', '', 0],
    ],
  );
  const fs: KubeObject = {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
    kind: 'FlowSchema',
    metadata: meta('exempt'),
    spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1 },
    status: {},
  };
  assert.deepEqual(flowSchemaTable.cells(fs, now), ['exempt', 'exempt', 1, '<none>', '60m', '?']);
  const dangling: KubeObject = {
    ...fs,
    metadata: meta('mine'),
    spec: {
      priorityLevelConfiguration: { name: 'gone' },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
    },
    status: {
      conditions: [
        { type: 'Other', status: 'True' },
        { type: 'Dangling', status: 'False' },
      ],
    },
  };
  assert.deepEqual(flowSchemaTable.cells(dangling, now), ['mine', 'gone', 500, 'ByUser', '60m', 'False']);
});
