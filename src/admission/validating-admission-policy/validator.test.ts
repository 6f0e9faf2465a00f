// Unit tests: one policy evaluated for one request — messages (AM-05), failure policies, budget
// (AM-03), audit annotation values (AM-04), match conditions (AM-08).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { admissionActivation, admissionRequestJson } from '../../cel/admission/index.js';
import type { KubeObject } from '../../machinery/object.js';
import { attrsOf } from '../testing/fake-admission-deps.js';
import { compilePolicy } from './compiled-policy.js';
import { validatePolicy } from './validator.js';
import { loadCelAdmission } from '../../cel/admission/load.js';

// The plugin loads the CEL engine before it compiles or evaluates anything; so do these tests.
before(() => loadCelAdmission());

function policy(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p', uid: 'u', resourceVersion: '1' },
    spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [] }, ...spec },
  };
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: { replicas: 5 },
};
const a = attrsOf({
  group: 'apps',
  resource: 'deployments',
  kind: 'Deployment',
  namespace: 'ns',
  object: deployment,
});
const activation = (params: unknown = null) =>
  admissionActivation({ attributes: a, params, request: admissionRequestJson(a) });

test('messages: messageExpression, then message, then the expression', () => {
  const r = validatePolicy({
    policy: compilePolicy(
      policy({
        validations: [
          {
            expression: 'object.spec.replicas < 3',
            messageExpression: "'too many: ' + string(object.spec.replicas)",
          },
          { expression: 'object.spec.replicas < 3', messageExpression: "'two\\nlines'", message: ' static ' },
          {
            expression: 'object.spec.replicas < 3',
            messageExpression: 'object.metadata.nope',
            reason: 'Forbidden',
          },
          { expression: ' object.spec.replicas < 4 ' },
          { expression: 'object.spec.replicas > 3' },
        ],
      }),
    ),
    activation: activation(),
  });
  assert.deepEqual(
    r.decisions.map((d) => [d.action, d.message, d.reason]),
    [
      ['deny', 'too many: 5', 'Invalid'],
      ['deny', 'static', 'Invalid'],
      ['deny', 'failed expression: object.spec.replicas < 3', 'Forbidden'],
      ['deny', 'failed expression: object.spec.replicas < 4', 'Invalid'],
      ['admit', '', ''],
    ],
  );
});

test('evaluation errors follow the failure policy; an exhausted budget fails the whole policy', () => {
  const spec = { validations: [{ expression: 'object.spec.nope > 1' }] };
  const fail = validatePolicy({ policy: compilePolicy(policy(spec)), activation: activation() });
  assert.deepEqual(
    fail.decisions.map((d) => [d.action, d.evalError, d.message]),
    [['deny', true, "expression 'object.spec.nope > 1' resulted in error: no such key: nope"]],
  );
  const ignore = validatePolicy({
    policy: compilePolicy(policy({ ...spec, failurePolicy: 'Ignore' })),
    activation: activation(),
  });
  assert.deepEqual(
    ignore.decisions.map((d) => d.action),
    ['admit'],
  );
  const budget = validatePolicy({
    policy: compilePolicy(policy({ validations: [{ expression: 'object.spec.replicas > 1' }] })),
    activation: activation(),
    budget: 1,
  });
  assert.deepEqual(
    budget.decisions.map((d) => d.message),
    ['validation failed due to running out of cost budget, no further validation rules will be run'],
  );
});

test('audit annotations: strings published, null and blank excluded, a stored bad expression is an error', () => {
  const r = validatePolicy({
    policy: compilePolicy(
      policy({
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        auditAnnotations: [
          {
            key: 'a',
            valueExpression: "' replicas ' + string(object.spec.replicas) + ' of ' + params.data.max",
          },
          { key: 'b', valueExpression: 'null' },
          { key: 'c', valueExpression: "'  '" },
          { key: 'd', valueExpression: 'object.spec.replicas > 1 ? dyn(1) : dyn("x")' },
        ],
      }),
    ),
    activation: activation({ data: { max: '3' } }),
  });
  assert.deepEqual(r.auditAnnotations, [
    { action: 'publish', key: 'a', value: 'replicas 5 of 3' },
    { action: 'exclude' },
    { action: 'exclude' },
    {
      action: 'error',
      key: 'd',
      // (validation refuses it on write; a policy stored before would fail like this)
      error: 'compilation error: must evaluate to one of [string null_type]',
      elapsedMs: (r.auditAnnotations[3] as { elapsedMs: number }).elapsedMs,
    },
  ]);
});

test('match conditions: false means no decisions at all', () => {
  const r = validatePolicy({
    policy: compilePolicy(
      policy({
        matchConditions: [{ name: 'small', expression: 'object.spec.replicas < 2' }],
        validations: [{ expression: 'false' }],
      }),
    ),
    activation: activation(),
  });
  assert.deepEqual(r, { decisions: [], auditAnnotations: [] });
});
