/**
 * Integration (AM-17): `--audit-policy-file` and `--audit-log-path` on a running server. The
 * policy: None for the loopback user and for `quiet`, Metadata for secrets, RequestResponse for
 * configmaps, Request for pods, Metadata for the rest, RequestReceived omitted. The JSON lines
 * written are read back and checked field by field.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AuditEvent } from '../../src/apiserver/audit/event.js';
import { startServer } from '../../src/cmd/serve/start.js';
import { clientCert } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const policyYaml = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:apiserver", "quiet"]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets"]
  - level: RequestResponse
    resources:
      - group: ""
        resources: ["configmaps"]
  - level: Request
    resources:
      - group: ""
        resources: ["pods"]
  - level: Metadata
`;

describe('audit policy and log backend (AM-17)', () => {
  let server: TestServer;
  let logPath: string;
  let quiet: CertAndKey;
  let dir: string;
  const lines = (): AuditEvent[] =>
    readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);
  const eventsOf = (id: string): AuditEvent[] => lines().filter((e) => e.auditID === id);
  const completed = (id: string): Promise<AuditEvent> =>
    waitFor(`the ResponseComplete event of ${id}`, () =>
      eventsOf(id).find((e) => e.stage === 'ResponseComplete'),
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nanokube-audit-it-'));
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, policyYaml);
    logPath = join(dir, 'logs', 'audit.log');
    server = await startTestServer({
      controllers: false,
      anonymousAuth: true,
      auditFlags: {
        policyFile,
        log: { path: logPath, maxAge: 0, maxBackups: 0, maxSize: 0, mode: 'blocking', bufferSize: 10_000 },
      },
    });
    const pki = join(server.dataDir, 'pki');
    quiet = await clientCert(
      { cert: readFileSync(join(pki, 'ca.crt'), 'utf8'), key: readFileSync(join(pki, 'ca.key'), 'utf8') },
      'CN=quiet, O=system:masters',
    );
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('secrets at Metadata: no bodies, objectRef from the object, RequestReceived omitted', async () => {
    const res = await server.request('POST', '/api/v1/namespaces/default/secrets', {
      headers: { 'audit-id': 'secret-1', 'user-agent': 'audit-test/1.0' },
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1' },
        stringData: { password: 'hunter2' },
      },
    });
    assert.equal(res.status, 201);
    const e = await completed('secret-1');
    assert.equal(e.kind, 'Event');
    assert.equal(e.apiVersion, 'audit.k8s.io/v1');
    assert.equal(e.level, 'Metadata');
    assert.equal(e.verb, 'create');
    assert.equal(e.requestURI, '/api/v1/namespaces/default/secrets');
    assert.deepEqual(e.user, {
      username: 'kubernetes-admin',
      groups: ['system:masters', 'system:authenticated'],
    });
    assert.deepEqual(e.sourceIPs, ['127.0.0.1']);
    assert.equal(e.userAgent, 'audit-test/1.0');
    assert.deepEqual(e.objectRef, {
      resource: 'secrets',
      namespace: 'default',
      name: 's1',
      apiVersion: 'v1',
    });
    assert.deepEqual(e.responseStatus, { metadata: {}, code: 201 });
    assert.equal(e.requestObject, undefined);
    assert.equal(e.responseObject, undefined);
    assert.equal(e.annotations?.['authorization.k8s.io/decision'], 'allow');
    assert.equal(e.annotations?.['authorization.k8s.io/reason'], '');
    assert.match(e.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.ok(e.stageTimestamp >= e.requestReceivedTimestamp);
    assert.deepEqual(
      eventsOf('secret-1').map((x) => x.stage),
      ['ResponseComplete'],
    );
    assert.ok(!readFileSync(logPath, 'utf8').includes('hunter2'), 'the secret value is not in the log');
  });

  test('configmaps at RequestResponse: the request as sent and the object answered; failures carry the Status', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { k: 'v' } };
    const res = await server.request('POST', '/api/v1/namespaces/default/configmaps', {
      headers: { 'audit-id': 'cm-1' },
      body,
    });
    assert.equal(res.status, 201);
    const e = await completed('cm-1');
    assert.equal(e.level, 'RequestResponse');
    // As upstream: the object decoded from the body, encoded back (creationTimestamp null).
    assert.deepEqual(e.requestObject, { ...body, metadata: { name: 'cm1', creationTimestamp: null } });
    const answered = res.json<{ metadata: { uid: string; resourceVersion: string } }>();
    assert.deepEqual(e.responseObject, answered);
    assert.deepEqual(e.responseStatus, { metadata: {}, code: 201 });

    const again = await server.request('POST', '/api/v1/namespaces/default/configmaps', {
      headers: { 'audit-id': 'cm-2' },
      body,
    });
    assert.equal(again.status, 409);
    const failed = await completed('cm-2');
    assert.deepEqual(failed.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'configmaps "cm1" already exists',
      reason: 'AlreadyExists',
      details: { name: 'cm1', kind: 'configmaps' },
      code: 409,
    });
    // The Status answered is the response object too.
    assert.equal((failed.responseObject as { kind: string }).kind, 'Status');

    const patched = await server.request('PATCH', '/api/v1/namespaces/default/configmaps/cm1', {
      headers: { 'audit-id': 'cm-3' },
      raw: '{"data":{"k":"w"}}',
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200);
    const p = await completed('cm-3');
    assert.deepEqual(p.requestObject, { data: { k: 'w' } });
    assert.deepEqual(p.objectRef, {
      resource: 'configmaps',
      namespace: 'default',
      name: 'cm1',
      apiVersion: 'v1',
    });
  });

  test('a pod an admin creates in a namespace: Request level, the pod as sent', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    const res = await server.request('POST', '/api/v1/namespaces/default/pods', {
      headers: { 'audit-id': 'pod-1' },
      body: pod,
    });
    assert.equal(res.status, 201);
    const e = await completed('pod-1');
    assert.equal(e.level, 'Request');
    // As upstream: the object decoded (and defaulted) from the body, encoded back.
    const sent = e.requestObject as typeof pod & {
      metadata: { creationTimestamp: null };
      spec: { restartPolicy: string; containers: { terminationMessagePath: string }[] };
    };
    assert.equal(sent.kind, 'Pod');
    assert.deepEqual(sent.metadata, { name: 'web', namespace: 'default', creationTimestamp: null });
    assert.equal(sent.spec.restartPolicy, 'Always');
    assert.equal(sent.spec.containers[0]?.terminationMessagePath, '/dev/termination-log');
    assert.equal((sent as { metadata: { uid?: string } }).metadata.uid, undefined, 'not the stored object');
    assert.equal(e.responseObject, undefined);
    assert.deepEqual(e.objectRef, { resource: 'pods', namespace: 'default', name: 'web', apiVersion: 'v1' });
  });

  test('a user the policy puts at None leaves no line', async () => {
    const res = await server.request('GET', '/api/v1/namespaces/default/configmaps', {
      credentials: quiet,
      headers: { 'audit-id': 'quiet-1' },
    });
    assert.equal(res.status, 200);
    // A later event of another user is written after it would have been (writes are in order).
    await server.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { 'audit-id': 'after-quiet' },
    });
    await completed('after-quiet');
    assert.deepEqual(eventsOf('quiet-1'), []);
    assert.ok(!lines().some((e) => e.user.username === 'quiet' || e.user.username === 'system:apiserver'));
  });

  test('a watch gets ResponseStarted when it starts and ResponseComplete when it ends', async () => {
    const session = connect(server.url, {
      ca: server.pki.caCert,
      cert: server.pki.adminCert,
      key: server.pki.adminKey,
    });
    try {
      const stream = session.request({
        ':path': '/api/v1/namespaces/default/configmaps?watch=1',
        'audit-id': 'watch-1',
      });
      stream.resume();
      const started = await waitFor('ResponseStarted of the watch', () =>
        eventsOf('watch-1').find((e) => e.stage === 'ResponseStarted'),
      );
      assert.equal(started.verb, 'watch');
      assert.equal(started.level, 'RequestResponse');
      assert.deepEqual(started.responseStatus, { metadata: {}, code: 200 });
      assert.equal(eventsOf('watch-1').length, 1, 'nothing completes while the watch runs');
      stream.close();
      const done = await completed('watch-1');
      assert.equal(done.responseObject, undefined, 'watch events are not response objects');
      assert.deepEqual(
        eventsOf('watch-1').map((e) => e.stage),
        ['ResponseStarted', 'ResponseComplete'],
      );
    } finally {
      session.close();
    }
  });

  test('authorization decisions: forbid with its reason; a refused impersonation is a 403 Status', async () => {
    // Anonymous may not list secrets.
    const denied = await server.request('GET', '/api/v1/namespaces/default/secrets', {
      credentials: 'none',
      headers: { 'audit-id': 'deny-1' },
    });
    assert.equal(denied.status, 403);
    const d = await completed('deny-1');
    assert.deepEqual(d.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
    assert.equal(d.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.equal(typeof d.annotations?.['authorization.k8s.io/reason'], 'string');
    assert.equal(d.responseStatus?.reason, 'Forbidden');

    // Anonymous may not impersonate: upstream's impersonation filter answers 403 itself, before
    // authorization, so the event has the Status but no authorization decision annotation.
    const imp = await server.request('GET', '/api/v1/namespaces/default/configmaps', {
      credentials: 'none',
      headers: { 'audit-id': 'imp-1', 'impersonate-user': 'bob' },
    });
    assert.equal(imp.status, 403);
    const i = await completed('imp-1');
    assert.deepEqual(i.responseStatus, {
      metadata: {},
      status: 'Failure',
      message:
        'users "bob" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'bob', kind: 'users' },
      code: 403,
    });
    assert.equal(i.impersonatedUser, undefined);
    assert.equal(i.annotations?.['authorization.k8s.io/decision'], undefined);

    // An allowed impersonation records who the request acted as.
    const ok = await server.request('GET', '/api/v1/namespaces/default/secrets', {
      headers: { 'audit-id': 'imp-2', 'impersonate-user': 'system:anonymous' },
    });
    assert.equal(ok.status, 403);
    const i2 = await completed('imp-2');
    assert.equal(i2.user.username, 'kubernetes-admin');
    assert.deepEqual(i2.impersonatedUser, {
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
    assert.equal(i2.annotations?.['authorization.k8s.io/decision'], 'forbid');
  });

  test('the audit metrics as upstream: events sent, levels per request', async () => {
    const res = await server.request('GET', '/metrics');
    assert.equal(res.status, 200);
    const value = (line: RegExp): number =>
      Number(
        res.text
          .split('\n')
          .find((l) => line.test(l))
          ?.split(' ')
          .pop(),
      );
    assert.ok(value(/^apiserver_audit_event_total /) > 0);
    assert.ok(value(/^apiserver_audit_level_total\{level="RequestResponse"\} /) > 0);
    assert.ok(
      value(/^apiserver_audit_level_total\{level="None"\} /) > 0,
      'the quiet user and the loopback user',
    );
    assert.equal(value(/^apiserver_audit_requests_rejected_total /), 0);
  });

  test('a request that fails authentication: ResponseStarted, no user, the 401 Status', async () => {
    const res = await server.request('GET', '/api/v1/namespaces', {
      credentials: 'none',
      headers: { 'audit-id': 'unauth-1', authorization: 'Bearer not-a-token' },
    });
    assert.equal(res.status, 401);
    const e = await waitFor('the failed authentication event', () => eventsOf('unauth-1')[0]);
    assert.equal(e.stage, 'ResponseStarted');
    assert.equal(e.level, 'Metadata');
    assert.deepEqual(e.user, {});
    assert.deepEqual(e.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    assert.equal(eventsOf('unauth-1').length, 1);
  });
});

describe('an invalid audit policy stops the server at start (AM-17)', () => {
  test('the validation error is upstream’s, with the file named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nanokube-audit-bad-'));
    try {
      const policyFile = join(dir, 'policy.yaml');
      writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Loud\n');
      await assert.rejects(
        startServer({
          dataDir: join(dir, 'data'),
          storage: 'memory',
          bindAddress: '127.0.0.1',
          securePort: 0,
          controllers: false,
          auditFlags: { policyFile },
        }),
        {
          message: `loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${policyFile}`,
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
