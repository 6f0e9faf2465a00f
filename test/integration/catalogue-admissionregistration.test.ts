/**
 * Admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration, and v1alpha1 ValidatingAdmissionPolicy (+status) and
 * ValidatingAdmissionPolicyBinding, served as kube-apiserver v1.27 does: discovery as the reference
 * server's, defaults, validation messages, the AdmissionWebhookMatchConditions gate (off by
 * default: match conditions are dropped), generation tracking, updates that need a
 * resourceVersion, the policy's status subresource and Table columns.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  admissionregistrationV1Resources,
  admissionregistrationV1alpha1Resources,
} from '../../src/registry/resources/admissionregistration/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const group = 'admissionregistration.k8s.io';
const v1 = `/apis/${group}/v1`;
const v1alpha1 = `/apis/${group}/v1alpha1`;
const validating = `${v1}/validatingwebhookconfigurations`;
const mutating = `${v1}/mutatingwebhookconfigurations`;
const policies = `${v1alpha1}/validatingadmissionpolicies`;
const bindings = `${v1alpha1}/validatingadmissionpolicybindings`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7');

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
  // Until the composition root serves these group-versions, register them here (the same resources).
  if ((await server.request('GET', v1)).status === 404) {
    for (const r of admissionregistrationV1Resources) server.resources.add(r);
  }
  if ((await server.request('GET', v1alpha1)).status === 404) {
    for (const r of admissionregistrationV1alpha1Resources) server.resources.add(r);
  }
});
after(() => server.stop());

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

function webhook(name: string, extra: Json = {}): Json {
  return {
    name,
    clientConfig: { service: { namespace: 'default', name: 'hook' } },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

function config(kind: string, name: string, webhooks: Json[]): Json {
  return { apiVersion: `${group}/v1`, kind, metadata: { name }, webhooks };
}

function readRef(file: string): { resources: Json[] } | undefined {
  const p = join(refDir, file);
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as { resources: Json[] }) : undefined;
}

test('v1 discovery entries equal the reference server', async (t) => {
  const r = await server.request('GET', v1);
  assert.equal(r.status, 200, r.text);
  const ref = readRef(`default/discovery/apis_${group}_v1.json`);
  if (ref === undefined) {
    t.skip(`reference discovery not found under ${refDir}`);
    return;
  }
  assert.deepEqual(r.json<{ resources: Json[] }>().resources, ref.resources);
});

test('v1alpha1 discovery entries equal the reference server but for v1.27 storage hashes', async (t) => {
  const r = await server.request('GET', v1alpha1);
  assert.equal(r.status, 200, r.text);
  const ref = readRef(`alpha-gates-on/discovery/apis_${group}_v1alpha1.json`);
  if (ref === undefined) {
    t.skip(`reference discovery not found under ${refDir}`);
    return;
  }
  // v1.28 stores these at v1beta1; v1.27 has only v1alpha1, which is then the storage version.
  const withoutHash = (list: Json[]): Json[] =>
    list.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'storageVersionHash')));
  const got = r.json<{ resources: Json[] }>().resources;
  assert.deepEqual(withoutHash(got), withoutHash(ref.resources));
  for (const e of got) {
    if (String(e['name']).includes('/')) continue;
    assert.equal(typeof e['storageVersionHash'], 'string');
  }
});

test('ValidatingWebhookConfiguration: defaults, generation, match conditions dropped, Table', async () => {
  const created = await server.request('POST', validating, {
    body: config('ValidatingWebhookConfiguration', 'pods.example', [
      webhook('pods.hook.example.com', {
        matchConditions: [
          { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" },
        ],
      }),
      webhook('url.hook.example.com', { clientConfig: { url: 'https://hooks.example.com/validate' } }),
    ]),
  });
  assert.equal(created.status, 201, created.text);
  const obj = created.json();
  assert.equal(at(obj, 'metadata', 'generation'), 1);
  const hook = at(obj, 'webhooks', 0) as Json;
  assert.equal(hook['failurePolicy'], 'Fail');
  assert.equal(hook['matchPolicy'], 'Equivalent');
  assert.deepEqual(hook['namespaceSelector'], {});
  assert.deepEqual(hook['objectSelector'], {});
  assert.equal(hook['timeoutSeconds'], 10);
  assert.equal(hook['reinvocationPolicy'], undefined);
  assert.equal(at(hook, 'rules', 0, 'scope'), '*');
  assert.equal(at(hook, 'clientConfig', 'service', 'port'), 443);
  assert.equal(hook['matchConditions'], undefined, 'AdmissionWebhookMatchConditions is off in v1.27');

  // A label change keeps the generation; a webhook change bumps it.
  const labelled = await server.request('PATCH', `${validating}/pods.example`, {
    contentType: mergePatch,
    body: { metadata: { labels: { team: 'a' } } },
  });
  assert.equal(labelled.status, 200, labelled.text);
  assert.equal(at(labelled.json(), 'metadata', 'generation'), 1);
  const changed = labelled.json();
  (at(changed, 'webhooks', 0) as Json)['timeoutSeconds'] = 5;
  const put = await server.request('PUT', `${validating}/pods.example`, { body: changed });
  assert.equal(put.status, 200, put.text);
  assert.equal(at(put.json(), 'metadata', 'generation'), 2);

  // Updates must name the resourceVersion they change (AllowUnconditionalUpdate is false).
  const unconditional = put.json();
  delete (unconditional['metadata'] as Json)['resourceVersion'];
  const refused = await server.request('PUT', `${validating}/pods.example`, { body: unconditional });
  assert.equal(refused.status, 422, refused.text);
  // The generic store renders the bad value and kind its own way (upstream: `0x0`, and the
  // resource rather than the kind); only the field and detail are checked here.
  assert.match(
    String(refused.json()['message']),
    /metadata\.resourceVersion: Invalid value: .*must be specified for an update/,
  );

  const rows = await server.request('GET', validating, { accept: table });
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => [c['name'], c['type']]),
    [
      ['Name', 'string'],
      ['Webhooks', 'integer'],
      ['Age', 'string'],
    ],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 2), ['pods.example', 2]);
  assert.equal((await server.request('DELETE', `${validating}/pods.example`)).status, 200);
});

test('webhook validation errors as the Status message lists them', async () => {
  const r = await server.request('POST', validating, {
    body: config('ValidatingWebhookConfiguration', 'bad', [
      webhook('hook', {
        clientConfig: { url: 'http://user@example.com/x?a=b#frag' },
        rules: [
          { operations: ['*', 'CREATE'], apiGroups: ['*'], apiVersions: ['v1'], resources: ['*/*', 'pods'] },
        ],
        sideEffects: 'Some',
        timeoutSeconds: 31,
        admissionReviewVersions: ['v2'],
      }),
      webhook('dup.example.com'),
      webhook('dup.example.com', {
        clientConfig: { service: { namespace: 'default', name: 'h', path: 'x', port: 0 } },
      }),
    ]),
  });
  assert.equal(r.status, 422, r.text);
  assert.equal(
    r.json()['message'],
    'ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [' +
      [
        'webhooks[0].name: Invalid value: "hook": should be a domain with at least three segments separated by dots',
        `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if '*' is present, must not specify other operations`,
        `webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
        'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
        'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
        `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'webhooks[0].clientConfig.url: Invalid value: "user": user information is not permitted in the URL',
        'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
        'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
        'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
        'webhooks[2].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
        'webhooks[2].clientConfig.service.path: Invalid value: "x": must start with a \'/\'',
        // Upstream drops the first character before splitting, whatever it is.
        'webhooks[2].clientConfig.service.path: Invalid value: "x": segment[0] may not be empty',
        'webhooks[2].name: Duplicate value: "dup.example.com"',
      ].join(', ') +
      ']',
  );
});

test('MutatingWebhookConfiguration: reinvocationPolicy default and validation', async () => {
  const created = await server.request('POST', mutating, {
    body: config('MutatingWebhookConfiguration', 'mutate', [webhook('mutate.example.com')]),
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(at(created.json(), 'webhooks', 0, 'reinvocationPolicy'), 'Never');
  const bad = await server.request('POST', mutating, {
    body: config('MutatingWebhookConfiguration', 'bad', [
      webhook('mutate.example.com', {
        reinvocationPolicy: 'Always',
        sideEffects: undefined,
        clientConfig: {},
      }),
    ]),
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'MutatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never", webhooks[0].clientConfig: Required value: exactly one of url or service is required]',
  );
  const rows = await server.request('GET', mutating, { accept: table });
  assert.deepEqual(rows.json<{ rows: { cells: unknown[] }[] }>().rows[0]?.cells.slice(0, 2), ['mutate', 1]);
});

const policy = (name: string, spec: Json): Json => ({
  apiVersion: `${group}/v1alpha1`,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec,
});

test('ValidatingAdmissionPolicy: defaults, status subresource, generation, validation, Table', async () => {
  const created = await server.request('POST', policies, {
    body: {
      ...policy('replicas', {
        paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' },
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE'],
              resources: ['deployments'],
            },
          ],
        },
        validations: [{ expression: 'object.spec.replicas <= params.maxReplicas' }],
      }),
      status: { observedGeneration: 7 },
    },
  });
  assert.equal(created.status, 201, created.text);
  const obj = created.json();
  assert.equal(at(obj, 'spec', 'failurePolicy'), 'Fail');
  assert.equal(at(obj, 'spec', 'matchConstraints', 'matchPolicy'), 'Equivalent');
  assert.deepEqual(at(obj, 'spec', 'matchConstraints', 'namespaceSelector'), {});
  assert.deepEqual(at(obj, 'spec', 'matchConstraints', 'objectSelector'), {});
  assert.equal(at(obj, 'spec', 'matchConstraints', 'resourceRules', 0, 'scope'), '*');
  assert.equal(at(obj, 'metadata', 'generation'), 1);
  assert.deepEqual(obj['status'], {});

  const status = await server.request('PATCH', `${policies}/replicas/status`, {
    contentType: mergePatch,
    body: {
      spec: { failurePolicy: 'Ignore' },
      status: {
        observedGeneration: 1,
        typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] },
      },
    },
  });
  assert.equal(status.status, 200, status.text);
  assert.equal(at(status.json(), 'spec', 'failurePolicy'), 'Fail');
  assert.equal(at(status.json(), 'status', 'observedGeneration'), 1);
  const badStatus = await server.request('PATCH', `${policies}/replicas/status`, {
    contentType: mergePatch,
    body: { status: { typeChecking: { expressionWarnings: [{ fieldRef: ' ', warning: '' }] } } },
  });
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.equal(
    badStatus.json()['message'],
    'ValidatingAdmissionPolicy.admissionregistration.k8s.io "replicas" is invalid: [status.typeChecking.expressionWarnings[0].warning: Required value, status.typeChecking.expressionWarnings[0].fieldRef: Required value]',
  );

  const changed = await server.request('PATCH', `${policies}/replicas`, {
    contentType: mergePatch,
    body: { spec: { failurePolicy: 'Ignore' }, status: { observedGeneration: 9 } },
  });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(at(changed.json(), 'metadata', 'generation'), 2);
  assert.equal(at(changed.json(), 'status', 'observedGeneration'), 1);

  const bad = await server.request('POST', policies, {
    body: policy('bad', {
      paramKind: { apiVersion: 'a/b/c', kind: 'Bad_Kind' },
      matchConstraints: { resourceRules: [] },
      validations: [{ expression: ' ', message: 'two\nlines', reason: 'Teapot' }],
    }),
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: [' +
      [
        'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        `spec.paramKind.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        'spec.matchConstraints.resourceRules: Required value',
        'spec.validations[0].expression: Required value: expression is not specified',
        'spec.validations[0].message: Invalid value: "two\\nlines": message must not contain line breaks',
        'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
      ].join(', ') +
      ']',
  );

  const rows = await server.request('GET', policies, { accept: table });
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Validations', 'ParamKind', 'Age'],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 3), ['replicas', 1, 'rules.example.com/v1/ReplicaLimit']);
  assert.equal((await server.request('DELETE', `${policies}/replicas`)).status, 200);
});

test('ValidatingAdmissionPolicyBinding: validation actions, paramRef, Table', async () => {
  const binding = (name: string, spec: Json): Json => ({
    apiVersion: `${group}/v1alpha1`,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec,
  });
  const created = await server.request('POST', bindings, {
    body: binding('replicas-test', {
      policyName: 'replicas',
      paramRef: { name: 'limit', namespace: 'default' },
      validationActions: ['Deny'],
      matchResources: { namespaceSelector: { matchLabels: { env: 'test' } } },
    }),
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(at(created.json(), 'spec', 'matchResources', 'matchPolicy'), 'Equivalent');
  assert.deepEqual(at(created.json(), 'spec', 'matchResources', 'objectSelector'), {});
  assert.equal(at(created.json(), 'metadata', 'generation'), 1);

  const bad = await server.request('POST', bindings, {
    body: binding('bad', {
      paramRef: { name: 'a/b' },
      validationActions: ['Deny', 'Warn', 'Deny', 'Log'],
      matchResources: { matchPolicy: 'Fuzzy' },
    }),
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "bad" is invalid: [' +
      [
        'spec.policyName: Required value',
        'spec.paramRef.name: Invalid value: "a/b": may not contain \'/\'',
        'spec.matchResouces.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
        'spec.validationActions[2]: Duplicate value: "Deny"',
        'spec.validationActions[3]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
        'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn", "Deny", "Log"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ].join(', ') +
      ']',
  );

  const rows = await server.request('GET', bindings, { accept: table });
  const doc = rows.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'PolicyName', 'ParamRef', 'Age'],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 3), ['replicas-test', 'replicas', 'default/limit']);
});
