import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../../util/json.js';
import {
  defaultValidatingAdmissionPolicy,
  defaultValidatingAdmissionPolicyBinding,
} from '../v1alpha1/defaults.js';
import { defaultMutatingWebhookConfiguration, defaultValidatingWebhookConfiguration } from './defaults.js';

test('v1 webhooks: failurePolicy, matchPolicy, selectors, timeout, rule scope, service port', () => {
  const o: JsonObject = {
    webhooks: [
      {
        name: 'a.example.com',
        clientConfig: { service: { name: 's', namespace: 'n' } },
        rules: [{ operations: ['*'] }, { operations: ['*'], scope: 'Cluster' }],
      },
      {
        name: 'b.example.com',
        failurePolicy: 'Ignore',
        timeoutSeconds: 3,
        clientConfig: { url: 'https://x' },
      },
    ],
  };
  defaultValidatingWebhookConfiguration(o);
  assert.deepEqual(o['webhooks'], [
    {
      name: 'a.example.com',
      clientConfig: { service: { name: 's', namespace: 'n', port: 443 } },
      rules: [
        { operations: ['*'], scope: '*' },
        { operations: ['*'], scope: 'Cluster' },
      ],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
    },
    {
      name: 'b.example.com',
      failurePolicy: 'Ignore',
      timeoutSeconds: 3,
      clientConfig: { url: 'https://x' },
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    },
  ]);
  const m: JsonObject = {
    webhooks: [{ name: 'm.example.com', reinvocationPolicy: 'IfNeeded' }, { name: 'n' }],
  };
  defaultMutatingWebhookConfiguration(m);
  assert.equal((m['webhooks'] as JsonObject[])[0]?.['reinvocationPolicy'], 'IfNeeded');
  assert.equal((m['webhooks'] as JsonObject[])[1]?.['reinvocationPolicy'], 'Never');
  assert.equal(
    (m['webhooks'] as JsonObject[])[1]?.['sideEffects'],
    undefined,
    'v1 has no sideEffects default',
  );
});

test('v1alpha1: policy failurePolicy (even without a spec), match resources, rule scope; binding', () => {
  const empty: JsonObject = {};
  defaultValidatingAdmissionPolicy(empty);
  assert.deepEqual(empty, { spec: { failurePolicy: 'Fail' } });
  const p: JsonObject = {
    spec: { matchConstraints: { resourceRules: [{}], excludeResourceRules: [{ scope: 'Namespaced' }] } },
  };
  defaultValidatingAdmissionPolicy(p);
  assert.deepEqual(p['spec'], {
    matchConstraints: {
      resourceRules: [{ scope: '*' }],
      excludeResourceRules: [{ scope: 'Namespaced' }],
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    },
    failurePolicy: 'Fail',
  });
  const b: JsonObject = { spec: { policyName: 'p' } };
  defaultValidatingAdmissionPolicyBinding(b);
  assert.deepEqual(b, { spec: { policyName: 'p' } }, 'no matchResources, no validationActions default');
  const withMatch: JsonObject = { spec: { matchResources: { matchPolicy: 'Exact' } } };
  defaultValidatingAdmissionPolicyBinding(withMatch);
  assert.deepEqual(withMatch['spec'], {
    matchResources: { matchPolicy: 'Exact', namespaceSelector: {}, objectSelector: {} },
  });
});
