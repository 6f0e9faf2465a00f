import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { ipAddressTable } from './ipaddress.js';

const now = new Date('2024-05-01T12:00:00Z');
const ip = (spec: JsonObject): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1alpha1',
  kind: 'IPAddress',
  metadata: { name: '10.0.0.1', creationTimestamp: '2024-04-30T12:00:00Z' },
  spec,
});

test('IPAddress: NAME, PARENTREF as resource[.group][/namespace]/name; the age cell upstream appends', () => {
  assert.deepEqual(
    ipAddressTable.columns.map((c) => c.name),
    ['Name', 'ParentRef'],
  );
  assert.deepEqual(
    ipAddressTable.cells(
      ip({ parentRef: { group: '', resource: 'services', namespace: 'default', name: 'web' } }),
      now,
    ),
    ['10.0.0.1', 'services/default/web', '24h'],
  );
  assert.equal(
    ipAddressTable.cells(
      ip({ parentRef: { group: 'Gateway.Example.com', resource: 'Gateways', name: 'gw' } }),
      now,
    )[1],
    'gateways.gateway.example.com/gw',
  );
  assert.equal(ipAddressTable.cells(ip({}), now)[1], '<none>');
});
