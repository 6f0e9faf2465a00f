import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonValue } from '../../util/json.js';
import { endpointsTable, formatEndpoints } from './endpoints.js';

const now = new Date('2024-05-01T12:00:00Z');

function ep(subsets: JsonValue[] | undefined): KubeObject {
  const o: KubeObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'e', creationTimestamp: '2024-05-01T11:00:00Z' },
  };
  if (subsets !== undefined) o['subsets'] = subsets;
  return o;
}

describe('endpointsTable', () => {
  it('is <none> without subsets', () => {
    assert.deepEqual(endpointsTable.cells(ep(undefined), now), ['e', '<none>', '60m']);
    assert.equal(formatEndpoints(ep([])), '<none>');
  });

  it('lists ip:port pairs per port, IPv6 in brackets', () => {
    const e = ep([
      {
        addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }],
        ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
      },
    ]);
    assert.equal(formatEndpoints(e), '10.0.0.1:80,[fd00::1]:80');
  });

  it('stops at three and counts the rest', () => {
    const e = ep([
      {
        addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 443, protocol: 'TCP' },
        ],
      },
      { addresses: [{ ip: '10.0.1.1' }] },
    ]);
    assert.equal(formatEndpoints(e), '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...');
  });

  it('shows bare IPs for port-less subsets', () => {
    assert.equal(formatEndpoints(ep([{ addresses: [{ ip: '10.0.0.7' }] }])), '10.0.0.7');
  });

  it('is empty when subsets only have not-ready addresses', () => {
    const e = ep([{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }]);
    assert.equal(formatEndpoints(e), '');
  });
});
