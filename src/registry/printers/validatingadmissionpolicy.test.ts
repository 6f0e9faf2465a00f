import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatParamRef,
  validatingAdmissionPolicyBindingTable,
  validatingAdmissionPolicyTable,
} from './validatingadmissionpolicy.js';

const now = new Date('2024-05-01T12:00:00Z');
const meta = { name: 'p', creationTimestamp: '2024-05-01T11:00:00Z' };

test('policies: NAME, VALIDATIONS, PARAMKIND (<unset> without one), AGE', () => {
  assert.deepEqual(
    validatingAdmissionPolicyTable.columns.map((c) => [c.name, c.type]),
    [
      ['Name', 'string'],
      ['Validations', 'integer'],
      ['ParamKind', 'string'],
      ['Age', 'string'],
    ],
  );
  const obj = {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: meta,
    spec: { validations: [{ expression: 'true' }, { expression: 'false' }] },
  };
  assert.deepEqual(validatingAdmissionPolicyTable.cells(obj, now), ['p', 2, '<unset>', '60m']);
  const withParams = { ...obj, spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } };
  assert.deepEqual(validatingAdmissionPolicyTable.cells(withParams, now).slice(1, 3), [0, 'v1/ConfigMap']);
});

test('bindings: NAME, POLICYNAME, PARAMREF (namespace/name, name, or <unset>), AGE', () => {
  assert.deepEqual(
    validatingAdmissionPolicyBindingTable.columns.map((c) => c.name),
    ['Name', 'PolicyName', 'ParamRef', 'Age'],
  );
  const obj = {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: meta,
    spec: { policyName: 'policy', paramRef: { namespace: 'ns', name: 'limits' } },
  };
  assert.deepEqual(validatingAdmissionPolicyBindingTable.cells(obj, now), [
    'p',
    'policy',
    'ns/limits',
    '60m',
  ]);
  assert.equal(formatParamRef({ name: 'limits' }), 'limits');
  assert.equal(formatParamRef(undefined), '<unset>');
});
