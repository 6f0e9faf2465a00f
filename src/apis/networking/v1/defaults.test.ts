import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../../util/json.js';
import { defaultIngressClass, defaultNetworkPolicy } from './defaults.js';

test('NetworkPolicy: no policyTypes means Ingress, plus Egress with egress rules; ports default to TCP', () => {
  const np: JsonObject = {
    spec: {
      podSelector: {},
      ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }],
      egress: [{ ports: [{ port: 443 }] }],
    },
  };
  defaultNetworkPolicy(np);
  assert.deepEqual(np, {
    spec: {
      podSelector: {},
      ingress: [
        {
          ports: [
            { port: 80, protocol: 'TCP' },
            { port: 53, protocol: 'UDP' },
          ],
        },
      ],
      egress: [{ ports: [{ port: 443, protocol: 'TCP' }] }],
      policyTypes: ['Ingress', 'Egress'],
    },
  });
  const plain: JsonObject = {};
  defaultNetworkPolicy(plain);
  assert.deepEqual(plain, { spec: { policyTypes: ['Ingress'] } });
  const given: JsonObject = { spec: { policyTypes: ['Egress'], egress: [{}] } };
  defaultNetworkPolicy(given);
  assert.deepEqual(given, { spec: { policyTypes: ['Egress'], egress: [{}] } });
});

test('IngressClass: parameters without a scope are cluster-scoped', () => {
  const ic: JsonObject = { spec: { controller: 'example.com/x', parameters: { kind: 'K', name: 'n' } } };
  defaultIngressClass(ic);
  assert.deepEqual(ic, {
    spec: { controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Cluster' } },
  });
  const none: JsonObject = { spec: { controller: 'example.com/x' } };
  defaultIngressClass(none);
  assert.deepEqual(none, { spec: { controller: 'example.com/x' } });
});
