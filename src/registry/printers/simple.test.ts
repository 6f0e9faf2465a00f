import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { configMapTable } from './configmap.js';
import { defaultTable, formatRfc3339 } from './default.js';
import { tableConvertorFor } from './index.js';
import { leaseTable } from './lease.js';
import { namespaceTable } from './namespace.js';
import { podTable } from './pod.js';
import { secretTable } from './secret.js';
import { serviceAccountTable } from './serviceaccount.js';

const now = new Date('2024-05-01T12:00:00Z');

function obj(kind: string, rest: JsonObject, creationTimestamp = '2024-04-01T12:00:00Z'): KubeObject {
  return { apiVersion: 'v1', kind, metadata: { name: 'x', creationTimestamp }, ...rest };
}

const names = (t: { columns: readonly { name: string }[] }): string[] => t.columns.map((c) => c.name);

describe('simple tables', () => {
  it('namespace: NAME, STATUS, AGE', () => {
    assert.deepEqual(names(namespaceTable), ['Name', 'Status', 'Age']);
    assert.deepEqual(namespaceTable.cells(obj('Namespace', { status: { phase: 'Terminating' } }), now), [
      'x',
      'Terminating',
      '30d',
    ]);
  });

  it('configmap: counts data and binaryData keys', () => {
    assert.deepEqual(names(configMapTable), ['Name', 'Data', 'Age']);
    const cm = obj('ConfigMap', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } });
    assert.deepEqual(configMapTable.cells(cm, now), ['x', 3, '30d']);
    assert.equal(configMapTable.cells(obj('ConfigMap', {}), now)[1], 0);
  });

  it('secret: type and data count', () => {
    assert.deepEqual(names(secretTable), ['Name', 'Type', 'Data', 'Age']);
    const s = obj('Secret', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'AA==', 'tls.key': 'AA==' } });
    assert.deepEqual(secretTable.cells(s, now), ['x', 'kubernetes.io/tls', 2, '30d']);
  });

  it('serviceaccount: secrets count', () => {
    assert.deepEqual(names(serviceAccountTable), ['Name', 'Secrets', 'Age']);
    assert.deepEqual(serviceAccountTable.cells(obj('ServiceAccount', {}), now), ['x', 0, '30d']);
    const sa = obj('ServiceAccount', { secrets: [{ name: 'x-token' }] });
    assert.equal(serviceAccountTable.cells(sa, now)[1], 1);
  });

  it('lease: holder identity, empty when unheld', () => {
    assert.deepEqual(names(leaseTable), ['Name', 'Holder', 'Age']);
    const l = obj(
      'Lease',
      { spec: { holderIdentity: 'kcm_1234', leaseDurationSeconds: 15 } },
      '2024-05-01T11:59:30Z',
    );
    assert.deepEqual(leaseTable.cells(l, now), ['x', 'kcm_1234', '30s']);
    assert.equal(leaseTable.cells(obj('Lease', { spec: {} }), now)[1], '');
  });
});

describe('defaultTable', () => {
  it('has Name (format name) and Created At (type date)', () => {
    assert.deepEqual(
      defaultTable.columns.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Created At', 'date', '', 0],
      ],
    );
  });
  it('prints the creation time as RFC 3339 UTC seconds', () => {
    assert.deepEqual(defaultTable.cells(obj('Widget', {}, '2024-04-01T14:00:00+02:00'), now), [
      'x',
      '2024-04-01T12:00:00Z',
    ]);
    const noTime: KubeObject = { apiVersion: 'v1', kind: 'Widget', metadata: { name: 'y' } };
    assert.deepEqual(defaultTable.cells(noTime, now), ['y', '0001-01-01T00:00:00Z']);
    assert.equal(formatRfc3339(Date.parse('2024-01-02T03:04:05.678Z')), '2024-01-02T03:04:05Z');
  });
});

describe('tableConvertorFor', () => {
  it('finds built-in printers by group and kind, else the default', () => {
    assert.equal(tableConvertorFor('', 'Pod'), podTable);
    assert.equal(tableConvertorFor('coordination.k8s.io', 'Lease'), leaseTable);
    assert.equal(tableConvertorFor('apps', 'Pod'), defaultTable);
    assert.equal(tableConvertorFor('example.com', 'Widget'), defaultTable);
  });
});
