import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { customResourceTable } from './table.js';

const column = (name: string, type: string, jsonPath: string, description = '') => ({
  name,
  type,
  format: '',
  description,
  priority: 0,
  jsonPath,
});
const now = new Date('2026-12-01T01:00:00Z');
const obj = {
  apiVersion: 'x/v1',
  kind: 'T',
  metadata: { name: 't', creationTimestamp: '2026-12-01T00:58:00Z' },
  spec: { n: 2.7, ok: true, labels: { a: 'b' }, when: 'not a time', empty: '' },
} as unknown as KubeObject;

describe('custom resource printer columns (tableconvertor)', () => {
  it('has Name and Age without columns', () => {
    const t = customResourceTable([]);
    assert.deepEqual(
      t.columns.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Age', 'date'],
      ],
    );
    assert.deepEqual(t.cells(obj, now), ['t', '2m']);
  });
  it('types cells as the column says (cellForJSONValue) and prints strings as jsonpath', () => {
    const t = customResourceTable([
      column('N', 'integer', '.spec.n'),
      column('F', 'number', '.spec.n'),
      column('B', 'boolean', '.spec.ok'),
      column('S', 'string', '.spec.labels'),
      column('Wrong', 'boolean', '.spec.n'),
      column('Bad date', 'date', '.spec.when'),
      column('No date', 'date', '.spec.empty'),
      column('Missing', 'string', '.spec.none'),
    ]);
    assert.deepEqual(t.cells(obj, now), [
      't',
      2,
      2.7,
      true,
      '{"a":"b"}',
      null,
      '<invalid>',
      '<unknown>',
      null,
    ]);
    assert.equal(
      t.columns[1]!.description,
      'Custom resource definition column (in JSONPath format): .spec.n',
    );
  });
});
