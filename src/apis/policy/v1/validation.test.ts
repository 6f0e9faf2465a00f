import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { convertPodDisruptionBudget, pdbV1beta1Label } from './defaults.js';
import {
  hasInvalidLabelValueInLabelSelector,
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatusUpdate,
} from './validation.js';

function pdb(spec: JsonObject, status?: JsonObject): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec,
    ...(status === undefined ? {} : { status }),
  };
}
const strict = { allowInvalidLabelValueInSelector: false };
const messages = (errs: readonly { toString(): string }[]): string[] => errs.map(String);
const selector = { matchLabels: { app: 'web' } };

test('minAvailable or maxUnavailable: non-negative ints or percents up to 100%', () => {
  assert.deepEqual(validatePodDisruptionBudget(pdb({ minAvailable: 2, selector }), strict), []);
  assert.deepEqual(validatePodDisruptionBudget(pdb({ maxUnavailable: '100%', selector }), strict), []);
  assert.deepEqual(validatePodDisruptionBudget(pdb({}), strict), [], 'neither and no selector is valid');
  assert.deepEqual(
    messages(
      validatePodDisruptionBudget(pdb({ minAvailable: -1, maxUnavailable: '150%', selector }), strict),
    ),
    [
      'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000010000), Selector:(*v1.LabelSelector)(0xc000010000), MaxUnavailable:(*intstr.IntOrString)(0xc000010000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
      'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0',
      'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ],
  );
  assert.deepEqual(messages(validatePodDisruptionBudget(pdb({ minAvailable: 'half' }), strict)), [
    `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
  ]);
});

test('selector and unhealthyPodEvictionPolicy', () => {
  assert.deepEqual(
    messages(
      validatePodDisruptionBudget(
        pdb({
          selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a b'] }] },
          unhealthyPodEvictionPolicy: 'Never',
        }),
        strict,
      ),
    ),
    [
      `spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ],
  );
  const stored = pdb({ selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a b'] }] } });
  assert.equal(hasInvalidLabelValueInLabelSelector(stored), true);
  assert.deepEqual(validatePodDisruptionBudget(stored, { allowInvalidLabelValueInSelector: true }), []);
  assert.deepEqual(
    validatePodDisruptionBudget(pdb({ selector, unhealthyPodEvictionPolicy: 'AlwaysAllow' }), strict),
    [],
  );
});

test('the v1beta1 marker requirement is removed from a selector unless it is the match-none selector', () => {
  const mixed: JsonObject = {
    spec: {
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: pdbV1beta1Label, operator: 'DoesNotExist' }],
      },
    },
  };
  convertPodDisruptionBudget(mixed);
  assert.deepEqual(mixed, { spec: { selector: { matchLabels: { app: 'web' } } } });
  const none: JsonObject = {
    spec: { selector: { matchExpressions: [{ key: pdbV1beta1Label, operator: 'Exists' }] } },
  };
  const copy = structuredClone(none);
  convertPodDisruptionBudget(none);
  assert.deepEqual(none, copy);
  const other: JsonObject = {
    spec: {
      selector: {
        matchExpressions: [
          { key: 'a', operator: 'Exists' },
          { key: pdbV1beta1Label, operator: 'Exists' },
        ],
      },
    },
  };
  convertPodDisruptionBudget(other);
  assert.deepEqual(other, { spec: { selector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } } });
});

test('status: non-negative counts and well-formed conditions', () => {
  assert.deepEqual(
    validatePodDisruptionBudgetStatusUpdate(
      pdb(selector, {
        disruptionsAllowed: 1,
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
        conditions: [
          {
            type: 'DisruptionAllowed',
            status: 'True',
            reason: 'SufficientPods',
            message: '',
            lastTransitionTime: '2024-01-01T00:00:00Z',
            observedGeneration: 1,
          },
        ],
      }),
    ),
    [],
  );
  assert.deepEqual(
    messages(
      validatePodDisruptionBudgetStatusUpdate(
        pdb(selector, {
          disruptionsAllowed: -1,
          currentHealthy: 0,
          desiredHealthy: 0,
          expectedPods: -2,
          conditions: [
            {
              type: 'DisruptionAllowed',
              status: 'Yes',
              reason: '1bad',
              lastTransitionTime: '2024-01-01T00:00:00Z',
            },
            { type: 'DisruptionAllowed', status: 'True', observedGeneration: -1 },
          ],
        }),
      ),
    ),
    [
      'status.conditions[0].status: Unsupported value: "Yes": supported values: "False", "True", "Unknown"',
      `status.conditions[0].reason: Invalid value: "1bad": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`,
      'status.conditions[1].type: Duplicate value: "DisruptionAllowed"',
      'status.conditions[1].observedGeneration: Invalid value: -1: must be greater than or equal to zero',
      'status.conditions[1].lastTransitionTime: Required value: must be set',
      'status.conditions[1].reason: Required value: must be set',
      'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
      'status.expectedPods: Invalid value: -2: must be greater than or equal to 0',
    ],
  );
});
