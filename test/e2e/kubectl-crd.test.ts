/**
 * Kubectl 1.27 with CustomResourceDefinitions against `nanokube serve`: apply a CRD, wait for
 * it to be Established, api-resources, explain, valid and invalid custom resources (the errors
 * name the field and message as upstream), printer columns in `get`, server-side apply of a
 * custom resource, and `delete crd` removing the custom resources.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-crd';

export const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        description: A CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: What to run and when.
            x-kubernetes-validations:
            - rule: "self.image.startsWith('my-')"
              messageExpression: "'image ' + self.image + ' is not one of ours'"
            - rule: "self.replicas >= oldSelf.replicas"
              message: replicas may not decrease
            properties:
              cronSpec:
                type: string
                description: The schedule in cron format.
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

const crontab = (name: string, spec: string): string =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n${spec}`;

describe('#10 kubectl with CRDs against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  it('create namespace', async () => {
    await s.ok(['create', 'namespace', ns]);
    await s.namespaceReady(ns);
  });

  it('apply a CRD and wait until it is Established', async () => {
    const file = s.kubectl.file('crd.yaml', crontabCRD);
    assert.equal(
      await s.ok(['apply', '-f', file]),
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n',
    );
    assert.equal(
      await s.ok([
        'wait',
        '--for',
        'condition=established',
        '--timeout=30s',
        'crd/crontabs.stable.example.com',
      ]),
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n',
    );
  });

  it('api-resources lists the custom resource', async () => {
    const out = await s.ok(['api-resources', '--api-group=stable.example.com']);
    const lines = out.trim().split('\n');
    assert.match(lines[0]!, /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/);
    assert.match(lines[1]!, /^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/);
  });

  it('explain shows the schema and its descriptions', async () => {
    const out = await s.ok(['explain', 'crontabs.spec']);
    assert.match(out, /GROUP:\s+stable\.example\.com/);
    assert.match(out, /KIND:\s+CronTab/);
    assert.match(out, /VERSION:\s+v1/);
    assert.match(out, /FIELD: spec <Object>/);
    assert.match(out, /What to run and when\./);
    assert.match(out, /cronSpec\s+<string>/);
    assert.match(out, /The schedule in cron format\./);
    assert.match(out, /replicas\s+<integer>/);
  });

  it('creates a valid custom resource and prints its columns', async () => {
    const file = s.kubectl.file(
      'ok.yaml',
      crontab('ok', '  cronSpec: "* * * * */5"\n  image: my-cron\n  replicas: 2\n'),
    );
    assert.equal(await s.ok(['create', '-f', file]), 'crontab.stable.example.com/ok created\n');
    const out = await s.ok(['get', 'ct', '-n', ns]);
    const [head, row] = out.trim().split('\n');
    assert.match(head!, /^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
    assert.match(row!, /^ok\s+\* \* \* \* \*\/5\s+2\s+\d+s$/);
  });

  it('refuses invalid custom resources naming the field and the rule', async () => {
    const file = s.kubectl.file(
      'bad.yaml',
      crontab('bad', '  cronSpec: "every minute"\n  image: my-cron\n  replicas: 20\n'),
    );
    const r = await s.run(['create', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The CronTab "bad" is invalid: /);
    assert.match(
      r.stderr,
      /spec\.replicas: Invalid value: 20: spec\.replicas in body should be less than or equal to 10/,
    );
    assert.match(
      r.stderr,
      /spec\.cronSpec: Invalid value: "every minute": spec\.cronSpec in body should match '\^\(\\d\+\|\\\*\)/,
    );
  });

  it('CEL rules: messageExpression on create, a transition rule on update', async () => {
    const file = s.kubectl.file('img.yaml', crontab('img', '  image: other\n  replicas: 1\n'));
    const r = await s.run(['create', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr,
      'The CronTab "img" is invalid: spec: Invalid value: "object": image other is not one of ours\n',
    );
    const down = await s.run([
      'patch',
      'ct',
      'ok',
      '-n',
      ns,
      '--type=merge',
      '-p',
      '{"spec":{"replicas":1}}',
    ]);
    assert.notEqual(down.code, 0);
    assert.equal(
      down.stderr,
      'The CronTab "ok" is invalid: spec: Invalid value: "object": replicas may not decrease\n',
    );
    await s.ok(['patch', 'ct', 'ok', '-n', ns, '--type=merge', '-p', '{"spec":{"replicas":3}}']);
  });

  it('unknown fields are refused by kubectl create (server-side strict validation)', async () => {
    const file = s.kubectl.file(
      'unknown.yaml',
      crontab('unknown', '  image: my-x\n  replicas: 1\n  bogus: 1\n'),
    );
    const r = await s.run(['create', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /strict decoding error: unknown field "spec\.bogus"/);
  });

  it('server-side apply of a custom resource records its manager and conflicts', async () => {
    const file = s.kubectl.file('ssa.yaml', crontab('ssa', '  image: my-first\n  replicas: 1\n'));
    assert.equal(
      await s.ok(['apply', '--server-side', '-f', file]),
      'crontab.stable.example.com/ssa serverside-applied\n',
    );
    const fields = await s.ok([
      'get',
      'ct',
      'ssa',
      '-n',
      ns,
      '--show-managed-fields',
      '-o',
      'jsonpath={.metadata.managedFields[0].manager}/{.metadata.managedFields[0].operation}',
    ]);
    assert.equal(fields, 'kubectl/Apply');
    const other = s.kubectl.file('ssa2.yaml', crontab('ssa', '  image: my-second\n'));
    const r = await s.run(['apply', '--server-side', '--field-manager=other', '-f', other]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /conflict with "kubectl": \.spec\.image/);
  });

  it('delete crd removes the custom resources', async () => {
    assert.equal(
      await s.ok(['delete', 'crd', 'crontabs.stable.example.com']),
      'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n',
    );
    // kubectl waited for the CRD to go; its custom resources went first.
    const gone = await s.run(['get', '--raw', `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`]);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /NotFound/);
    // Recreated, the CRD has no custom resources left over.
    await s.ok(['apply', '-f', s.kubectl.file('crd2.yaml', crontabCRD)]);
    await s.ok([
      'wait',
      '--for',
      'condition=established',
      '--timeout=30s',
      'crd/crontabs.stable.example.com',
    ]);
    const r = await s.run(['get', 'crontabs', '-n', ns]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `No resources found in ${ns} namespace.\n`);
  });

  itStopsCleanly(s);
});
