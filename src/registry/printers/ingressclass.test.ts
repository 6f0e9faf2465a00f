import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { ingressClassTable } from './ingressclass.js';

const now = new Date('2024-05-01T12:00:00Z');

function ingressClass(spec: JsonObject): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name: 'nginx', creationTimestamp: '2024-04-30T12:00:00Z' },
    spec,
  };
}

test('IngressClass columns and rows: CONTROLLER, PARAMETERS as Kind[.group]/name or <none>', () => {
  assert.deepEqual(
    ingressClassTable.columns.map((c) => [c.name, c.priority]),
    [
      ['Name', 0],
      ['Controller', 0],
      ['Parameters', 0],
      ['Age', 0],
    ],
  );
  assert.deepEqual(ingressClassTable.cells(ingressClass({ controller: 'k8s.io/ingress-nginx' }), now), [
    'nginx',
    'k8s.io/ingress-nginx',
    '<none>',
    '24h',
  ]);
  const withParams = ingressClass({
    controller: 'example.com/lb',
    parameters: {
      apiGroup: 'k8s.example.com',
      kind: 'IngressParameters',
      name: 'external-lb',
      scope: 'Cluster',
    },
  });
  assert.deepEqual(
    ingressClassTable.cells(withParams, now)[2],
    'IngressParameters.k8s.example.com/external-lb',
  );
  const core = ingressClass({ controller: 'example.com/lb', parameters: { kind: 'ConfigMap', name: 'cfg' } });
  assert.deepEqual(ingressClassTable.cells(core, now)[2], 'ConfigMap/cfg');
});
