import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { endpointSliceTable } from './endpointslice.js';

const now = new Date('2024-05-01T12:00:00Z');

function slice(addressType: string, ports: JsonObject[] | undefined, endpoints: JsonValue[]): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-abc', namespace: 'default', creationTimestamp: '2024-05-01T11:55:00Z' },
    addressType,
    ...(ports !== undefined ? { ports } : {}),
    endpoints,
  };
}

test('EndpointSlice columns: NAME, ADDRESSTYPE, PORTS, ENDPOINTS, AGE', () => {
  assert.deepEqual(
    endpointSliceTable.columns.map((c) => [c.name, c.type, c.priority]),
    [
      ['Name', 'string', 0],
      ['AddressType', 'string', 0],
      ['Ports', 'string', 0],
      ['Endpoints', 'string', 0],
      ['Age', 'string', 0],
    ],
  );
});

test('EndpointSlice rows: port numbers, names or *, addresses, "+ N more..." and <unset>', () => {
  const s = slice(
    'IPv4',
    [{ name: 'https', port: 443, protocol: 'TCP' }],
    [{ addresses: ['10.0.0.1'], conditions: { ready: true } }],
  );
  assert.deepEqual(endpointSliceTable.cells(s, now), ['web-abc', 'IPv4', '443', '10.0.0.1', '5m']);
  const many = slice(
    'IPv4',
    [{ port: 80 }, { name: 'metrics' }, {}, { port: 9000 }, { port: 9001 }],
    [
      { addresses: ['10.0.0.1', '10.0.0.2'] },
      { addresses: ['10.0.0.3'] },
      { addresses: ['10.0.0.4', '10.0.0.5'] },
    ],
  );
  assert.deepEqual(endpointSliceTable.cells(many, now).slice(2, 4), [
    '80,metrics,* + 2 more...',
    '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...',
  ]);
  assert.deepEqual(endpointSliceTable.cells(slice('IPv6', undefined, []), now).slice(1, 4), [
    'IPv6',
    '<unset>',
    '<unset>',
  ]);
});
