import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { apiServiceTable } from './apiservice.js';
import { customResourceDefinitionTable } from './customresourcedefinition.js';

const now = new Date('2024-05-01T12:00:00Z');

function apiService(spec: JsonObject, conditions?: JsonObject[]): KubeObject {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1beta1.metrics.k8s.io', creationTimestamp: '2024-05-01T11:00:00Z' },
    spec,
    status: conditions === undefined ? {} : { conditions },
  };
}

test('APIService columns: NAME, SERVICE, AVAILABLE, AGE', () => {
  assert.deepEqual(
    apiServiceTable.columns.map((c) => [c.name, c.type, c.format, c.priority]),
    [
      ['Name', 'string', 'name', 0],
      ['Service', 'string', '', 0],
      ['Available', 'string', '', 0],
      ['Age', 'string', '', 0],
    ],
  );
  const service = { service: { namespace: 'kube-system', name: 'metrics-server', port: 443 } };
  assert.deepEqual(
    apiServiceTable.cells(apiService({}, [{ type: 'Available', status: 'True', reason: 'Local' }]), now),
    ['v1beta1.metrics.k8s.io', 'Local', 'True', '60m'],
  );
  assert.deepEqual(
    apiServiceTable
      .cells(apiService(service, [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }]), now)
      .slice(1, 3),
    ['kube-system/metrics-server', 'False (MissingEndpoints)'],
  );
  assert.deepEqual(apiServiceTable.cells(apiService(service), now)[2], 'Unknown');
  assert.deepEqual(
    apiServiceTable.cells(apiService(service, [{ type: 'Available', status: 'Unknown' }]), now)[2],
    'Unknown',
  );
});

test('CustomResourceDefinitions print with the default table', () => {
  assert.deepEqual(
    customResourceDefinitionTable.columns.map((c) => c.name),
    ['Name', 'Created At'],
  );
});
