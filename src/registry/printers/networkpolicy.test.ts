import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { networkPolicyTable } from './networkpolicy.js';

const now = new Date('2024-05-01T12:00:00Z');

function policy(podSelector: JsonObject): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'deny', namespace: 'default', creationTimestamp: '2024-05-01T11:59:30Z' },
    spec: { podSelector, policyTypes: ['Ingress'] },
  };
}

test('NetworkPolicy columns and rows: POD-SELECTOR as a selector string, <none> when empty', () => {
  assert.deepEqual(
    networkPolicyTable.columns.map((c) => [c.name, c.priority]),
    [
      ['Name', 0],
      ['Pod-Selector', 0],
      ['Age', 0],
    ],
  );
  assert.deepEqual(networkPolicyTable.cells(policy({}), now), ['deny', '<none>', '30s']);
  const sel = {
    matchLabels: { role: 'db' },
    matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }],
  };
  assert.deepEqual(networkPolicyTable.cells(policy(sel), now)[1], 'env in (dev,prod),role=db');
});
