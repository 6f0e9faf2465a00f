import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { clusterCIDRTable } from './clustercidr.js';

const now = new Date('2024-05-01T12:00:00Z');
const cc = (spec: JsonObject): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1alpha1',
  kind: 'ClusterCIDR',
  metadata: { name: 'pods', creationTimestamp: '2024-04-30T12:00:00Z' },
  spec,
});

test('ClusterCIDR: PERNODEHOSTBITS, IPV4/IPV6 or <none>, wide NODESELECTOR as Go prints the terms', () => {
  assert.deepEqual(
    clusterCIDRTable.columns.map((c) => [c.name, c.priority]),
    [
      ['Name', 0],
      ['PerNodeHostBits', 0],
      ['IPv4', 0],
      ['IPv6', 0],
      ['Age', 0],
      ['NodeSelector', 1],
    ],
  );
  assert.deepEqual(clusterCIDRTable.cells(cc({ perNodeHostBits: 8, ipv4: '10.0.0.0/16', ipv6: '' }), now), [
    'pods',
    '8',
    '10.0.0.0/16',
    '<none>',
    '24h',
    '<none>',
  ]);
  const sel = {
    nodeSelectorTerms: [
      {
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a', 'b'] },
          { key: 'gpu', operator: 'Exists' },
        ],
      },
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
    ],
  };
  assert.equal(
    clusterCIDRTable.cells(cc({ perNodeHostBits: 8, ipv6: 'fd00::/64', nodeSelector: sel }), now)[5],
    'MatchExpressions: [{zone In [a b]} {gpu Exists []}],MatchFields: [{metadata.name In [n1]}]',
  );
});
