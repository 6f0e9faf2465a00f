/**
 * With kubectl 1.27: ValidatingAdmissionPolicy as a new user meets it
 * (AM-03..AM-08) — a Deployment replicas limit read from a param ConfigMap with the
 * messageExpression in the refusal; the same binding switched to [Warn, Audit] giving kubectl's
 * `Warning:` line and the audit annotation; matchConditions exempting labelled objects; a policy
 * using `authorizer` that admits only users who may create a named ConfigMap; and a type error
 * shown in the policy's status.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const dir = mkdtempSync(join(tmpdir(), 'vap-e2e-'));
const auditPolicy = join(dir, 'audit.yaml');
const auditLog = join(dir, 'audit.log');
writeFileSync(
  auditPolicy,
  [
    'apiVersion: audit.k8s.io/v1',
    'kind: Policy',
    'omitStages: [RequestReceived]',
    'rules:',
    '  - level: Metadata',
    '    resources: [{group: "apps", resources: ["deployments"]}]',
    '  - level: None',
    '',
  ].join('\n'),
);

const policy = `apiVersion: admissionregistration.k8s.io/v1alpha1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  matchConditions:
  - name: not-exempt
    expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)"
  validations:
  - expression: object.spec.replicas <= int(params.data.maxReplicas)
    messageExpression: "'replicas must be no greater than ' + params.data.maxReplicas"
---
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-replicas}
spec:
  policyName: max-replicas
  validationActions: [Deny]
  paramRef: {name: max-replicas, namespace: vap}
`;

const authorizerPolicy = `apiVersion: admissionregistration.k8s.io/v1alpha1
kind: ValidatingAdmissionPolicy
metadata: {name: special-only}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [secrets]}
  validations:
  - expression: "authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).name('special').check('create').allowed()"
    messageExpression: "request.userInfo.username + ' may not create the special configmap'"
  - expression: object.data.size() > 0
---
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: special-only}
spec:
  policyName: special-only
  validationActions: [Deny]
`;

describe('kubectl 1.27 and ValidatingAdmissionPolicy (AM-03..AM-08)', { skip: kubectlSkip }, () => {
  const s = kubectlSession({
    args: [
      '--nodes',
      '0',
      '--feature-gates=ValidatingAdmissionPolicy=true',
      '--runtime-config=admissionregistration.k8s.io/v1alpha1=true',
      `--audit-policy-file=${auditPolicy}`,
      `--audit-log-path=${auditLog}`,
    ],
  });

  async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
    for (let i = 0; i < 400; i++) {
      const v = await check();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`timed out waiting for ${what}`);
  }

  it('a param ConfigMap limits replicas; the denial carries the messageExpression text', async () => {
    await s.ok(['create', 'namespace', 'vap']);
    await s.ok(['create', 'configmap', 'max-replicas', '-n', 'vap', '--from-literal=maxReplicas=3']);
    assert.equal(
      await s.ok(['apply', '-f', s.kubectl.file('policy.yaml', policy)]),
      'validatingadmissionpolicy.admissionregistration.k8s.io/max-replicas created\n' +
        'validatingadmissionpolicybinding.admissionregistration.k8s.io/max-replicas created\n',
    );
    const denied = await s.run(['create', 'deployment', 'big', '--image=nginx', '--replicas=5', '-n', 'vap']);
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      'error: failed to create deployment: deployments.apps "big" is forbidden: ' +
        "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas must be no greater than 3\n",
    );
    assert.equal(
      await s.ok(['create', 'deployment', 'small', '--image=nginx', '--replicas=3', '-n', 'vap']),
      'deployment.apps/small created\n',
    );
    // matchConditions: a labelled Deployment is exempt (AM-08).
    const exempt = s.kubectl.file(
      'exempt.yaml',
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: exempt, namespace: vap, labels: {exempt: "yes"}}',
        'spec:',
        '  replicas: 9',
        '  selector: {matchLabels: {app: exempt}}',
        '  template:',
        '    metadata: {labels: {app: exempt}}',
        '    spec: {containers: [{name: c, image: nginx}]}',
        '',
      ].join('\n'),
    );
    assert.equal(await s.ok(['apply', '-f', exempt]), 'deployment.apps/exempt created\n');
  });

  it('the binding switched to [Warn, Audit] warns in kubectl and annotates the audit event (AM-04)', async () => {
    await s.ok([
      'patch',
      'validatingadmissionpolicybinding',
      'max-replicas',
      '--type=merge',
      '-p',
      '{"spec":{"validationActions":["Warn","Audit"]}}',
    ]);
    const warned = await s.run([
      'create',
      'deployment',
      'warned',
      '--image=nginx',
      '--replicas=5',
      '-n',
      'vap',
    ]);
    assert.equal(warned.code, 0, warned.stderr);
    assert.equal(warned.stdout, 'deployment.apps/warned created\n');
    assert.equal(
      warned.stderr,
      "Warning: Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas': replicas must be no greater than 3\n",
    );
    const annotation = await until(() => {
      let text = '';
      try {
        text = readFileSync(auditLog, 'utf8');
      } catch {
        return undefined;
      }
      const events = text
        .split('\n')
        .filter((l) => l !== '')
        .map(
          (l) =>
            JSON.parse(l) as {
              verb: string;
              stage: string;
              objectRef?: { name?: string };
              annotations?: Record<string, string>;
            },
        );
      const event = events.find(
        (e) => e.stage === 'ResponseComplete' && e.verb === 'create' && e.objectRef?.name === 'warned',
      );
      return event?.annotations?.['validation.policy.admission.k8s.io/validation_failure'];
    }, 'the audit event of the warned create');
    assert.deepEqual(JSON.parse(annotation), [
      {
        message: 'replicas must be no greater than 3',
        policy: 'max-replicas',
        binding: 'max-replicas',
        expressionIndex: 0,
        validationActions: ['Warn', 'Audit'],
      },
    ]);
  });

  it('`authorizer` admits only users who may create the named ConfigMap (AM-06)', async () => {
    await s.ok(['apply', '-f', s.kubectl.file('authorizer.yaml', authorizerPolicy)]);
    await s.ok(['create', 'role', 'secret-writer', '-n', 'vap', '--verb=create', '--resource=secrets']);
    await s.ok(['create', 'rolebinding', 'jane', '-n', 'vap', '--role=secret-writer', '--user=jane']);
    const jane = await s.run([
      'create',
      'secret',
      'generic',
      'by-jane',
      '--from-literal=a=b',
      '-n',
      'vap',
      '--as=jane',
    ]);
    assert.equal(jane.code, 1);
    assert.equal(
      jane.stderr,
      'error: failed to create secret secrets "by-jane" is forbidden: ' +
        "ValidatingAdmissionPolicy 'special-only' with binding 'special-only' denied request: jane may not create the special configmap\n",
    );
    await s.ok([
      'create',
      'role',
      'special',
      '-n',
      'vap',
      '--verb=create',
      '--resource=configmaps',
      '--resource-name=special',
    ]);
    await s.ok(['create', 'rolebinding', 'jane-special', '-n', 'vap', '--role=special', '--user=jane']);
    const allowed = await until(async () => {
      const r = await s.run([
        'create',
        'secret',
        'generic',
        'by-jane',
        '--from-literal=a=b',
        '-n',
        'vap',
        '--as=jane',
      ]);
      return r.code === 0 ? r : undefined;
    }, 'jane to be allowed');
    assert.equal(allowed.stdout, 'secret/by-jane created\n');
    await s.ok(['delete', '-f', s.kubectl.file('authorizer.yaml', authorizerPolicy)]);
  });

  it("a type error shows in the policy's status (AM-07)", async () => {
    const typo = `apiVersion: admissionregistration.k8s.io/v1alpha1
kind: ValidatingAdmissionPolicy
metadata: {name: typo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replica > 1
`;
    await s.ok(['apply', '-f', s.kubectl.file('typo.yaml', typo)]);
    const warning = await until(async () => {
      const out = await s.ok([
        'get',
        'validatingadmissionpolicy',
        'typo',
        '-o',
        'jsonpath={.status.observedGeneration} {.status.typeChecking.expressionWarnings[0].fieldRef}{"\\n"}{.status.typeChecking.expressionWarnings[0].warning}',
      ]);
      return out.startsWith('1 ') ? out : undefined;
    }, 'the type checking status');
    assert.equal(
      warning,
      "1 spec.validations[0].expression\napps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1\n | ...........^",
    );
  });

  itStopsCleanly(s);
});
