import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { defaultValidatingWebhookConfiguration } from '../../../apis/admissionregistration/v1/defaults.js';
import { defaultValidatingAdmissionPolicy } from '../../../apis/admissionregistration/v1alpha1/defaults.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { admissionregistrationV1Resources, admissionregistrationV1alpha1Resources } from './index.js';
import {
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
} from './validatingadmissionpolicies.js';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhookconfigurations.js';
import { loadCelAdmission } from '../../../cel/admission/load.js';

// The store awaits the strategies' loadValidation (the CEL engine) before it validates; so do these tests.
before(() => loadCelAdmission());

const gates = (on: string[]): StrategyContext => ({
  namespace: '',
  features: { enabled: (n) => on.includes(n) },
});
const off = gates([]);
const on = gates(['AdmissionWebhookMatchConditions']);
const strings = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

function hook(name: string, extra: JsonObject = {}): JsonObject {
  return {
    name,
    clientConfig: { url: 'https://hooks.example.com' },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

function vwc(webhooks: JsonObject[]): KubeObject {
  const o: KubeObject = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'c' },
    webhooks,
  };
  defaultValidatingWebhookConfiguration(o);
  return o;
}

const mc = (name: string, expression = 'true'): JsonObject => ({ name, expression });

test('the admissionregistration resources and their discovery facts', () => {
  assert.deepEqual(
    [...admissionregistrationV1Resources, ...admissionregistrationV1alpha1Resources].map((r) => [
      `${r.info.version}/${r.info.resource}`,
      r.info.namespaced,
      r.info.categories,
      r.info.statusSubresource === true,
      r.strategy.allowUnconditionalUpdate,
      r.strategy.allowCreateOnUpdate,
    ]),
    [
      ['v1/mutatingwebhookconfigurations', false, ['api-extensions'], false, false, false],
      ['v1/validatingwebhookconfigurations', false, ['api-extensions'], false, false, false],
      ['v1alpha1/validatingadmissionpolicies', false, ['api-extensions'], true, false, false],
      ['v1alpha1/validatingadmissionpolicybindings', false, ['api-extensions'], false, false, false],
    ],
  );
});

test('match conditions: dropped on create with the gate off, kept and validated with it on', () => {
  const s = validatingWebhookConfigurations.strategy;
  const dropped = vwc([hook('a.example.com', { matchConditions: [mc('x')] })]);
  s.prepareForCreate(off, dropped);
  assert.equal((dropped['webhooks'] as JsonObject[])[0]?.['matchConditions'], undefined);
  assert.equal(dropped.metadata.generation, 1);

  const kept = vwc([
    hook('a.example.com', { matchConditions: [mc('x'), mc('x', ' '), mc(''), mc('bad name!')] }),
  ]);
  s.prepareForCreate(on, kept);
  assert.equal(((kept['webhooks'] as JsonObject[])[0]?.['matchConditions'] as unknown[]).length, 4);
  assert.deepEqual(strings(s.validate(on, kept)), [
    'webhooks[0].matchConditions[1].expression: Required value',
    'webhooks[0].matchConditions[1].name: Duplicate value: "x"',
    'webhooks[0].matchConditions[2].name: Required value',
    "webhooks[0].matchConditions[3].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
  const many = vwc([
    hook('a.example.com', { matchConditions: Array.from({ length: 65 }, (_, i) => mc(`c${i}`)) }),
  ]);
  assert.deepEqual(strings(s.validate(on, many)), [
    'webhooks[0].matchConditions: Too many: 65: must have at most 64 items',
  ]);
});

test('match conditions on update with the gate off: kept when the stored object uses them', () => {
  const s = mutatingWebhookConfigurations.strategy;
  const old = vwc([hook('a.example.com', { matchConditions: [mc('x')] })]);
  old.metadata.generation = 3;
  const upd = cloneJson(old);
  (upd['webhooks'] as JsonObject[])[0]!['matchConditions'] = [mc('y')];
  s.prepareForUpdate(off, upd, old);
  assert.deepEqual((upd['webhooks'] as JsonObject[])[0]?.['matchConditions'], [mc('y')]);
  assert.equal(upd.metadata.generation, 4);

  // Without stored match conditions, new ones are dropped, so nothing changed: same generation.
  const plain = vwc([hook('a.example.com')]);
  plain.metadata.generation = 2;
  const adding = cloneJson(plain);
  (adding['webhooks'] as JsonObject[])[0]!['matchConditions'] = [mc('y')];
  s.prepareForUpdate(off, adding, plain);
  assert.equal((adding['webhooks'] as JsonObject[])[0]?.['matchConditions'], undefined);
  assert.equal(adding.metadata.generation, 2);
});

test('webhook rules: wildcards, empty entries, scope', () => {
  const s = validatingWebhookConfigurations.strategy;
  const o = vwc([
    hook('a.example.com', {
      rules: [
        {
          operations: [],
          apiGroups: ['*', 'apps'],
          apiVersions: ['*', ''],
          resources: ['pods/*', 'pods/log'],
        },
        {
          operations: ['PATCH'],
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['*', 'pods', '*/status', 'x/status', ''],
          scope: 'Global',
        },
        { operations: ['*'], apiGroups: [], apiVersions: [], resources: [] },
      ],
    }),
  ]);
  assert.deepEqual(strings(s.validate(off, o)), [
    'webhooks[0].rules[0].operations: Required value',
    `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
    `webhooks[0].rules[0].apiVersions: Invalid value: []string{"*", ""}: if '*' is present, must not specify other API versions`,
    'webhooks[0].rules[0].apiVersions[1]: Required value',
    `webhooks[0].rules[0].resources[1]: Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log`,
    'webhooks[0].rules[1].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    `webhooks[0].rules[1].resources[3]: Invalid value: "x/status": if '*/status' is present, must not specify x/status`,
    'webhooks[0].rules[1].resources[4]: Required value',
    `webhooks[0].rules[1].resources: Invalid value: []string{"*", "pods", "*/status", "x/status", ""}: if '*' is present, must not specify other resources without subresources`,
    'webhooks[0].rules[1].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[0].rules[2].apiGroups: Required value',
    'webhooks[0].rules[2].apiVersions: Required value',
    'webhooks[0].rules[2].resources: Required value',
  ]);
});

test('webhook names, review versions, selectors and policies', () => {
  const s = validatingWebhookConfigurations.strategy;
  const o = vwc([
    hook('', { admissionReviewVersions: [] }),
    hook('Bad_Name.example.com', {
      admissionReviewVersions: ['v1', 'v1', 'V2'],
      failurePolicy: 'Maybe',
      matchPolicy: 'Fuzzy',
      objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
    }),
  ]);
  assert.deepEqual(strings(s.validate(off, o)), [
    'webhooks[0].name: Required value',
    'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    `webhooks[1].name: Invalid value: "Bad_Name.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'webhooks[1].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    'webhooks[1].matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
    "webhooks[1].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    'webhooks[1].admissionReviewVersions[1]: Invalid value: "v1": duplicate version',
    `webhooks[1].admissionReviewVersions[2]: Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  ]);
});

test('webhook updates tolerate what the stored object already breaks', () => {
  const s = validatingWebhookConfigurations.strategy;
  const bad = { matchLabels: {}, matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] };
  const old = vwc([
    hook('a.example.com', { sideEffects: 'Some', admissionReviewVersions: ['v9'], namespaceSelector: bad }),
    hook('a.example.com'),
  ]);
  const upd = cloneJson(old);
  assert.deepEqual(strings(s.validateUpdate(off, upd, old)), []);
  assert.equal(strings(s.validate(off, upd)).length, 4);
  // Fixing the stored object makes the strict rules apply again.
  const fixedOld = vwc([hook('a.example.com'), hook('b.example.com')]);
  assert.deepEqual(strings(s.validateUpdate(off, upd, fixedOld)).length, 4);
});

function vap(spec: JsonObject, name = 'p'): KubeObject {
  const o: KubeObject = {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec,
  };
  defaultValidatingAdmissionPolicy(o);
  return o;
}

const rules = {
  resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};

test('policy: required parts, paramKind, match resources, audit annotations', () => {
  const s = validatingAdmissionPolicies.strategy;
  assert.deepEqual(strings(s.validate(off, vap({}))), [
    'spec.matchConstraints: Required value',
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  const o = vap({
    failurePolicy: 'Never',
    paramKind: { apiVersion: 'Example.com/', kind: '' },
    matchConstraints: {
      ...rules,
      excludeResourceRules: [{ ...rules.resourceRules[0], resourceNames: ['a', 'a', '..'] }],
      objectSelector: { matchLabels: { 'bad key!': 'v' } },
    },
    matchConditions: [mc('', ' ')],
    validations: [{ expression: 'true', messageExpression: '  ', message: '  ' }],
    auditAnnotations: [
      { key: 'k', valueExpression: "'x'" },
      { key: 'k', valueExpression: ' ' },
      { key: 'Bad Key', valueExpression: 'y'.repeat(5121) },
    ],
  });
  assert.deepEqual(strings(s.validate(off, o)), [
    'spec.failurePolicy: Unsupported value: "Never": supported values: "Fail", "Ignore"',
    `spec.paramKind.apiVersion: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.paramKind.apiVersion: Invalid value: "Example.com/": version must be specified',
    'spec.paramKind.kind: Required value',
    "spec.matchConstraints.labelSelector.matchLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    'spec.matchConstraints.excludeResourceRules[0].resourceNames[1]: Duplicate value: "a"',
    'spec.matchConstraints.excludeResourceRules[0].resourceNames[2]: Invalid value: "..": may not be \'..\'',
    'spec.matchConditions[0].expression: Required value',
    'spec.matchConditions[0].name: Required value',
    'spec.validations[0].messageExpression: Invalid value: "  ": must be non-empty if specified',
    'spec.validations[0].message: Invalid value: "  ": message must be non-empty if specified',
    'spec.auditAnnotations[1].valueExpression: Required value: valueExpression is not specified',
    'spec.auditAnnotations[1].key: Duplicate value: "k"',
    "spec.auditAnnotations[2].key: Invalid value: \"p/Bad Key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    'spec.auditAnnotations[2].valueExpression: Required value: must not exceed 5120 bytes in length',
  ]);
  const tooMany = vap({
    matchConstraints: rules,
    auditAnnotations: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" })),
  });
  const msgs = strings(s.validate(off, tooMany));
  assert.equal(msgs.length, 1);
  assert.match(
    msgs[0]!,
    /^spec\.auditAnnotations: Invalid value: \[\]admissionregistration\.AuditAnnotation\{admissionregistration\.AuditAnnotation\{Key:"k0", ValueExpression:"'v'"\}, .*: must not have more than 20 auditAnnotations$/,
  );
});

test('policy updates: generation on spec changes, status kept, match conditions rechecked only when changed', () => {
  const s = validatingAdmissionPolicies.strategy;
  const old = vap({
    matchConstraints: rules,
    validations: [{ expression: 'true' }],
    matchConditions: [mc('', ' ')],
  });
  s.prepareForCreate(off, old);
  assert.equal(old.metadata.generation, 1);
  assert.deepEqual(old['status'], {});
  old['status'] = { observedGeneration: 1 };
  const upd = cloneJson(old);
  upd['status'] = {};
  (upd['spec'] as JsonObject)['failurePolicy'] = 'Ignore';
  s.prepareForUpdate(off, upd, old);
  assert.equal(upd.metadata.generation, 2);
  assert.deepEqual(upd['status'], { observedGeneration: 1 });
  assert.deepEqual(strings(s.validateUpdate(off, upd, old)), []);
  (upd['spec'] as JsonObject)['paramKind'] = { apiVersion: 'v1', kind: 'ConfigMap' };
  assert.deepEqual(strings(s.validateUpdate(off, upd, old)), [
    'spec.matchConditions[0].expression: Required value',
    'spec.matchConditions[0].name: Required value',
  ]);
});

test('policy status: only status changes; warnings and conditions are checked', () => {
  const status = validatingAdmissionPolicies.statusStrategy!;
  const old = vap({ matchConstraints: rules, validations: [{ expression: 'true' }] }, 'p');
  old.metadata.generation = 1;
  const upd = cloneJson(old);
  (upd['spec'] as JsonObject)['failurePolicy'] = 'Ignore';
  upd['status'] = {
    observedGeneration: 1,
    typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] },
    conditions: [
      {
        type: 'Ready',
        status: 'Maybe',
        reason: 'R',
        message: '',
        lastTransitionTime: '2024-01-01T00:00:00Z',
      },
    ],
  };
  status.prepareForUpdate(off, upd, old);
  assert.equal((upd['spec'] as JsonObject)['failurePolicy'], 'Fail');
  assert.equal(upd.metadata.generation, 1);
  assert.deepEqual(strings(status.validateUpdate(off, upd, old)), [
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
  ]);
});

test('binding: policy name, validation actions, paramRef, generation', () => {
  const s = validatingAdmissionPolicyBindings.strategy;
  const binding = (spec: JsonObject): KubeObject => ({
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'b' },
    spec,
  });
  assert.deepEqual(
    strings(s.validate(off, binding({ policyName: 'p', validationActions: ['Warn', 'Audit'] }))),
    [],
  );
  assert.deepEqual(strings(s.validate(off, binding({ policyName: 'P!' }))), [
    `spec.policyName: Invalid value: "P!": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.validationActions: Required value: at least one validation action is required',
  ]);
  assert.deepEqual(
    strings(s.validate(off, binding({ policyName: 'p', validationActions: ['Deny'], matchResources: {} }))),
    [
      'spec.matchResouces.matchPolicy: Required value',
      'spec.matchResouces.namespaceSelector: Required value',
      'spec.matchResouces.labelSelector: Required value',
    ],
  );
  const old = binding({ policyName: 'p', validationActions: ['Deny'] });
  s.prepareForCreate(off, old);
  assert.equal(old.metadata.generation, 1);
  const upd = cloneJson(old);
  (upd['spec'] as JsonObject)['policyName'] = 'q';
  s.prepareForUpdate(off, upd, old);
  assert.equal(upd.metadata.generation, 2);
});
