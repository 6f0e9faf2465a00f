/**
 * Integration: ValidatingAdmissionPolicy enforced (AM-03 to AM-08). Policies and
 * bindings written through the API decide real requests: params from a ConfigMap,
 * messageExpression, validationActions Deny/Warn/Audit, auditAnnotations, matchConditions, the
 * `authorizer` variable answered by RBAC, failure policies for missing params and run-time
 * errors, the runtime cost budget, and expressions refused when the policy is written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

type Json = Record<string, unknown>;
const v1alpha1 = '/apis/admissionregistration.k8s.io/v1alpha1';
const policies = `${v1alpha1}/validatingadmissionpolicies`;
const bindings = `${v1alpha1}/validatingadmissionpolicybindings`;
const deployments = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;

const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    resources: [{ group: "apps", resources: ["deployments"] }]
  - level: None
`;

function deployment(name: string, replicas: number, labels: Record<string, string> = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  };
}

function policy(name: string, spec: Json): Json {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
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
      ...spec,
    },
  };
}

function binding(name: string, policyName: string, spec: Json = {}): Json {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1alpha1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

describe('ValidatingAdmissionPolicy (AM-03..AM-08)', () => {
  let s: TestServer;
  let dir: string;
  let logPath: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vap-'));
    const policyFile = join(dir, 'audit.yaml');
    writeFileSync(policyFile, auditPolicy);
    logPath = join(dir, 'audit.log');
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      featureGates: { ValidatingAdmissionPolicy: true },
      runtimeConfig: 'admissionregistration.k8s.io/v1alpha1=true',
      auditFlags: {
        policyFile,
        log: { path: logPath, maxAge: 0, maxBackups: 0, maxSize: 0, mode: 'blocking', bufferSize: 1000 },
      },
    });
    for (const ns of ['vap', 'vap-exempt']) {
      const r = await s.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { team: ns } } },
      });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = async (path: string, body: Json, headers: Record<string, string> = {}) =>
    s.request('POST', path, { body, headers });
  const put = async (path: string, body: Json) => s.request('PUT', path, { body });
  const remove = async (path: string) => s.request('DELETE', path);
  const must = async (p: Promise<{ status: number; text: string }>, status = 201): Promise<void> => {
    const r = await p;
    assert.equal(r.status, status, r.text);
  };

  it('denies with params and messageExpression; Warn and Audit instead of Deny (AM-04, AM-05)', async () => {
    await must(
      create('/api/v1/namespaces/vap/configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'max-replicas' },
        data: { maxReplicas: '3' },
      }),
    );
    await must(
      create(
        policies,
        policy('max-replicas', {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          validations: [
            {
              expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
              messageExpression: "'replicas must be no greater than ' + params.data.maxReplicas",
            },
          ],
          auditAnnotations: [
            { key: 'replicas', valueExpression: "'replicas: ' + string(object.spec.replicas)" },
          ],
        }),
      ),
    );
    await must(
      create(
        bindings,
        binding('max-replicas', 'max-replicas', {
          paramRef: { name: 'max-replicas', namespace: 'vap' },
          matchResources: { namespaceSelector: { matchLabels: { team: 'vap' } } },
        }),
      ),
    );
    const denied = await create(deployments('vap'), deployment('big', 5));
    assert.equal(denied.status, 422, denied.text);
    const status = denied.json();
    const message =
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas must be no greater than 3";
    assert.equal(status['reason'], 'Invalid');
    assert.equal(status['message'], `deployments.apps "big" is forbidden: ${message}`);
    assert.deepEqual(status['details'], {
      name: 'big',
      group: 'apps',
      kind: 'deployments',
      causes: [{ message }],
    });
    // Other namespaces are outside the binding's narrowing.
    await must(create(deployments('vap-exempt'), deployment('big', 5)));
    await must(create(deployments('vap'), deployment('small', 2)));

    // The same binding switched to [Warn, Audit] takes effect on the next request.
    const current = (await s.request('GET', `${bindings}/max-replicas`)).json<{ spec: Json }>();
    current.spec['validationActions'] = ['Warn', 'Audit'];
    await must(put(`${bindings}/max-replicas`, current), 200);
    const warned = await create(deployments('vap'), deployment('warned', 5));
    assert.equal(warned.status, 201, warned.text);
    assert.deepEqual(warned.warnings, [
      "Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas': replicas must be no greater than 3",
    ]);
    const auditID = String(warned.headers['audit-id']);
    const event = await waitFor('the audit event', () => {
      const lines = readFileSync(logPath, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      return lines
        .map((l) => JSON.parse(l) as { auditID: string; stage: string; annotations?: Record<string, string> })
        .find((e) => e.auditID === auditID && e.stage === 'ResponseComplete');
    });
    assert.deepEqual(
      JSON.parse(event.annotations?.['validation.policy.admission.k8s.io/validation_failure'] ?? ''),
      [
        {
          message: 'replicas must be no greater than 3',
          policy: 'max-replicas',
          binding: 'max-replicas',
          expressionIndex: 0,
          validationActions: ['Warn', 'Audit'],
        },
      ],
    );
    assert.equal(event.annotations?.['max-replicas/replicas'], 'replicas: 5');
    await must(remove(`${bindings}/max-replicas`), 200);
    await must(remove(`${policies}/max-replicas`), 200);
  });

  it('matchConditions exempt labelled objects (AM-08)', async () => {
    await must(
      create(
        policies,
        policy('no-latest', {
          matchConditions: [
            {
              name: 'not-exempt',
              expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)",
            },
          ],
          validations: [
            { expression: 'object.spec.replicas < 10', message: 'too many replicas', reason: 'Forbidden' },
          ],
        }),
      ),
    );
    await must(create(bindings, binding('no-latest', 'no-latest')));
    const denied = await create(deployments('vap'), deployment('many', 12));
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.json()['reason'], 'Forbidden');
    assert.match(String(denied.json()['message']), /denied request: too many replicas$/);
    await must(create(deployments('vap'), deployment('many-exempt', 12, { exempt: 'yes' })));
    await must(remove(`${bindings}/no-latest`), 200);
    await must(remove(`${policies}/no-latest`), 200);
  });

  it('authorizer checks run against RBAC as the requesting user (AM-06)', async () => {
    await must(
      create(
        policies,
        policy('may-create-special', {
          validations: [
            {
              expression:
                "authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).name('special').check('create').allowed()",
              messageExpression:
                "'user ' + request.userInfo.username + ' may not create the special configmap'",
            },
          ],
        }),
      ),
    );
    await must(create(bindings, binding('may-create-special', 'may-create-special')));
    // alice may create deployments but not the configmap the policy asks about.
    await must(
      create('/apis/rbac.authorization.k8s.io/v1/namespaces/vap/roles', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'deployer' },
        rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }],
      }),
    );
    await must(
      create('/apis/rbac.authorization.k8s.io/v1/namespaces/vap/rolebindings', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'deployer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      }),
    );
    const alice = { 'Impersonate-User': 'alice' };
    const denied = await waitFor('alice to be allowed to create deployments', async () => {
      const r = await create(deployments('vap'), deployment('by-alice', 1), alice);
      return r.status === 403 && String(r.json()['message']).includes('Impersonate') ? undefined : r;
    });
    assert.equal(denied.status, 422, denied.text);
    assert.match(
      String(denied.json()['message']),
      /denied request: user alice may not create the special configmap$/,
    );
    // The admin (system:masters) may: admitted.
    await must(create(deployments('vap'), deployment('by-admin', 1)));
    await must(remove(`${bindings}/may-create-special`), 200);
    await must(remove(`${policies}/may-create-special`), 200);
  });

  it('failure policies: a missing param, a run-time error, the cost budget (AM-03, AM-09)', async () => {
    await must(
      create(
        policies,
        policy('needs-param', {
          failurePolicy: 'Fail',
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          validations: [{ expression: 'params.data.ok == "yes"' }],
        }),
      ),
    );
    await must(
      create(
        bindings,
        binding('needs-param', 'needs-param', { paramRef: { name: 'absent', namespace: 'vap' } }),
      ),
    );
    const missing = await create(deployments('vap'), deployment('p1', 1));
    assert.equal(missing.status, 422, missing.text);
    assert.equal(
      missing.json()['message'],
      `deployments.apps "p1" is forbidden: ValidatingAdmissionPolicy 'needs-param' with binding 'needs-param' denied request: failed to configure binding: configmaps "absent" not found`,
    );
    const ignored = (await s.request('GET', `${policies}/needs-param`)).json<{ spec: Json }>();
    ignored.spec['failurePolicy'] = 'Ignore';
    await must(put(`${policies}/needs-param`, ignored), 200);
    await must(create(deployments('vap'), deployment('p1', 1)));
    await must(remove(`${bindings}/needs-param`), 200);
    await must(remove(`${policies}/needs-param`), 200);

    await must(
      create(
        policies,
        policy('runtime-error', {
          validations: [{ expression: 'object.spec.nope > 1' }],
        }),
      ),
    );
    await must(create(bindings, binding('runtime-error', 'runtime-error')));
    const failed = await create(deployments('vap'), deployment('p2', 1));
    assert.equal(failed.status, 422, failed.text);
    assert.match(
      String(failed.json()['message']),
      /denied request: expression 'object\.spec\.nope > 1' resulted in error: no such key: nope$/,
    );
    await must(remove(`${bindings}/runtime-error`), 200);
    await must(remove(`${policies}/runtime-error`), 200);

    // Each expression may spend at most 1M; this one would spend far more.
    await must(
      create(
        policies,
        policy('expensive', {
          validations: [
            {
              expression:
                "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, 'x'.matches('x')))))))",
            },
          ],
        }),
      ),
    );
    await must(create(bindings, binding('expensive', 'expensive')));
    const costly = await create(deployments('vap'), deployment('p3', 1));
    assert.equal(costly.status, 422, costly.text);
    assert.match(
      String(costly.json()['message']),
      /resulted in error: operation cancelled: actual cost limit exceeded$/,
    );
    await must(remove(`${bindings}/expensive`), 200);
    await must(remove(`${policies}/expensive`), 200);
  });

  it('refuses expressions that do not compile when the policy is written', async () => {
    const r = await create(
      policies,
      policy('bad', {
        validations: [
          { expression: 'object.spec.replicas', messageExpression: '1' },
          { expression: 'nope.x == 1' },
        ],
        matchConditions: [{ name: 'm', expression: "'x'" }],
      }),
    );
    assert.equal(r.status, 422, r.text);
    const causes = (r.json()['details'] as { causes: { field: string; message: string }[] }).causes;
    assert.deepEqual(
      causes.map((c) => [c.field, c.message]),
      [
        ['spec.matchConditions[0].expression', `Invalid value: "'x'": must evaluate to bool`],
        ['spec.validations[0].expression', 'Invalid value: "object.spec.replicas": must evaluate to bool'],
        ['spec.validations[0].messageExpression', 'Invalid value: "1": must evaluate to string'],
        [
          'spec.validations[1].expression',
          "Invalid value: \"nope.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope.x == 1\n | ^",
        ],
      ],
    );
  });

  it('type-checks validations against the matched kinds into status (AM-07)', async () => {
    await must(
      create(
        policies,
        policy('typo', {
          validations: [
            { expression: 'object.spec.replicas > 1' },
            { expression: 'object.spec.replica > 1' },
            {
              expression:
                "object.metadata.name == 'x' && object.spec.template.spec.containers.all(c, c.image != '')",
            },
          ],
        }),
      ),
    );
    const status = await waitFor('the policy status', async () => {
      const p = (await s.request('GET', `${policies}/typo`)).json<{ status?: Json }>();
      return p.status?.['observedGeneration'] === 1 ? p.status : undefined;
    });
    assert.deepEqual(status['typeChecking'], {
      expressionWarnings: [
        {
          fieldRef: 'spec.validations[1].expression',
          warning:
            "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1\n | ...........^",
        },
      ],
    });
    // A spec change is checked again: the typo fixed, no warnings.
    const fixed = (await s.request('GET', `${policies}/typo`)).json<{ spec: { validations: Json[] } }>();
    fixed.spec.validations[1] = { expression: 'object.spec.replicas > 0' };
    await must(put(`${policies}/typo`, fixed), 200);
    const again = await waitFor('the new status', async () => {
      const p = (await s.request('GET', `${policies}/typo`)).json<{ status?: Json }>();
      return p.status?.['observedGeneration'] === 2 ? p.status : undefined;
    });
    assert.deepEqual(again['typeChecking'], {});
    await must(remove(`${policies}/typo`), 200);
  });

  it('takes params of a custom resource kind', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'limits.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Cluster',
        names: { plural: 'limits', singular: 'limit', kind: 'Limit', listKind: 'LimitList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { max: { type: 'integer' } } } },
              },
            },
          },
        ],
      },
    };
    await must(create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd));
    const limit = {
      apiVersion: 'example.com/v1',
      kind: 'Limit',
      metadata: { name: 'deployments' },
      spec: { max: 4 },
    };
    await waitFor('the custom resource to be served', async () => {
      const r = await create('/apis/example.com/v1/limits', limit);
      return r.status === 201 ? true : undefined;
    });
    await must(
      create(
        policies,
        policy('crd-limit', {
          paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' },
          validations: [
            {
              expression: 'object.spec.replicas <= params.spec.max',
              messageExpression: "'at most ' + string(params.spec.max) + ' replicas'",
            },
          ],
        }),
      ),
    );
    await must(create(bindings, binding('crd-limit', 'crd-limit', { paramRef: { name: 'deployments' } })));
    const denied = await create(deployments('vap'), deployment('five', 5));
    assert.equal(denied.status, 422, denied.text);
    assert.match(String(denied.json()['message']), /denied request: at most 4 replicas$/);
    await must(create(deployments('vap'), deployment('four', 4)));
    await must(remove(`${bindings}/crd-limit`), 200);
    await must(remove(`${policies}/crd-limit`), 200);
  });

  it('metrics count policy checks with upstream names', async () => {
    const metrics = (await s.request('GET', '/metrics', { accept: 'text/plain' })).text;
    assert.match(
      metrics,
      /^apiserver_validating_admission_policy_check_total\{enforcement_action="deny",policy="max-replicas",policy_binding="max-replicas",state="active"\} [1-9]/m,
    );
    assert.match(
      metrics,
      /^apiserver_validating_admission_policy_check_total\{enforcement_action="warn",policy="max-replicas",policy_binding="max-replicas",state="active"\} 1$/m,
    );
  });
});
