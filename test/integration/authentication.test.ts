/**
 * Security: client certificates are verified against nanokube's CA (CN = user,
 * O = groups); a certificate from another CA or an expired one gets 401; with --anonymous-auth a
 * request without credentials is system:anonymous and reaches only the public information paths
 * (anonymous is off by default, then it gets 401); unverifiable bearer tokens are
 * refused; impersonation acts as the impersonated user. What an authenticated user may do is
 * RBAC's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AuditEvent } from '../../src/apiserver/filters/audit.js';
import { parseAuditPolicy } from '../../src/apiserver/audit/policy.js';
import { clientCert, newCa } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { bind, createRole, group, user, waitForAccess } from '../support/rbac.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const unauthorized = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

const paths = {
  secrets: '/api/v1/namespaces/kube-system/secrets',
  configmaps: '/api/v1/namespaces/default/configmaps',
  health: ['/healthz', '/livez', '/readyz', '/version'],
  discovery: ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2', '/openapi/v3'],
};

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };

describe('authentication and the anonymous user with --anonymous-auth=true', () => {
  let server: TestServer;
  let ours: CertAndKey;
  let foreign: CertAndKey;
  let expired: CertAndKey;
  let alice: CertAndKey;

  before(async () => {
    server = await startTestServer({ controllers: false, anonymousAuth: true });
    const pki = join(server.dataDir, 'pki');
    ours = {
      cert: readFileSync(join(pki, 'ca.crt'), 'utf8'),
      key: readFileSync(join(pki, 'ca.key'), 'utf8'),
    };
    foreign = await clientCert(await newCa(), 'CN=mallory, O=system:masters');
    const longAgo = new Date(Date.now() - 10 * 86_400_000);
    expired = await clientCert(ours, 'CN=old-admin, O=system:masters', {
      notBefore: longAgo,
      notAfter: new Date(longAgo.getTime() + 86_400_000),
    });
    alice = await clientCert(ours, 'CN=alice, O=dev, O=qa');
  });
  after(() => server.stop());

  test('no certificate: resources are forbidden to system:anonymous with upstream messages', async () => {
    const list = await server.request('GET', paths.secrets, { credentials: 'none' });
    assert.equal(list.status, 403);
    assert.deepEqual(list.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "kube-system"',
      reason: 'Forbidden',
      details: { kind: 'secrets' },
      code: 403,
    });
    const get = await server.request('GET', `${paths.secrets}/token`, { credentials: 'none' });
    assert.equal(
      get.json()['message'],
      'secrets "token" is forbidden: User "system:anonymous" cannot get resource "secrets" in API group "" in the namespace "kube-system"',
    );
    assert.deepEqual(get.json()['details'], { name: 'token', kind: 'secrets' });
    const create = await server.request('POST', paths.configmaps, { credentials: 'none', body: configMap });
    assert.equal(create.status, 403);
    assert.equal(
      create.json()['message'],
      'configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
    const nodes = await server.request('GET', '/api/v1/nodes', { credentials: 'none' });
    assert.equal(
      nodes.json()['message'],
      'nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const deploy = await server.request('DELETE', '/apis/apps/v1/namespaces/default/deployments/web', {
      credentials: 'none',
    });
    assert.equal(
      deploy.json()['message'],
      'deployments.apps "web" is forbidden: User "system:anonymous" cannot delete resource "deployments" in API group "apps" in the namespace "default"',
    );
    // Nothing was written.
    const admin = await server.request('GET', `${paths.configmaps}/x`);
    assert.equal(admin.status, 404);
  });

  test('no certificate: health and version answer, discovery and OpenAPI are forbidden', async () => {
    for (const path of paths.health) {
      const r = await server.request('GET', path, { credentials: 'none' });
      assert.equal(r.status, 200, path);
    }
    const verbose = await server.request('GET', '/readyz?verbose', { credentials: 'none' });
    assert.match(verbose.text, /readyz check passed/);
    for (const path of paths.discovery) {
      const r = await server.request('GET', path, { credentials: 'none' });
      assert.equal(r.status, 403, path);
      assert.deepEqual(r.json(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `forbidden: User "system:anonymous" cannot get path "${path}"`,
        reason: 'Forbidden',
        details: {},
        code: 403,
      });
    }
    // public-info-viewer names exact paths: individual checks are not public.
    const ping = await server.request('GET', '/healthz/ping', { credentials: 'none' });
    assert.equal(ping.status, 403);
  });

  test('no certificate over HTTP/2 is anonymous too', async () => {
    const session = connect(server.url, { ca: server.pki.caCert });
    try {
      const status = (path: string): Promise<number> =>
        new Promise((resolve, reject) => {
          const stream = session.request({ ':path': path, accept: 'application/json' });
          stream.on('response', (h) => resolve(Number(h[':status'])));
          stream.on('error', reject);
          stream.resume();
          stream.end();
        });
      assert.equal(await status('/version'), 200);
      assert.equal(await status(paths.secrets), 403);
    } finally {
      session.close();
    }
  });

  for (const [name, creds] of [
    ['a certificate from another CA', () => foreign],
    ['an expired certificate from our CA', () => expired],
  ] as const) {
    test(`${name} gets 401 everywhere, health included`, async () => {
      for (const path of [paths.secrets, ...paths.health, ...paths.discovery]) {
        const r = await server.request('GET', path, { credentials: creds() });
        assert.equal(r.status, 401, path);
        assert.deepEqual(r.json(), unauthorized);
      }
      const create = await server.request('POST', paths.configmaps, {
        credentials: creds(),
        body: configMap,
      });
      assert.equal(create.status, 401);
      assert.equal((await server.request('GET', `${paths.configmaps}/x`)).status, 404);
    });
  }

  test('a bearer token nanokube cannot verify gets 401, with or without a certificate of no user', async () => {
    const r = await server.request('GET', paths.secrets, {
      credentials: 'none',
      headers: { authorization: 'Bearer not-a-token' },
    });
    assert.equal(r.status, 401);
    assert.deepEqual(r.json(), unauthorized);
  });

  test('a certificate from our CA names the user and groups; RBAC decides what they may do', async () => {
    const refused = await server.request('POST', paths.configmaps, { credentials: alice, body: configMap });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(
      refused.json()['message'],
      'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
    // The certificate's O=dev is a group RBAC can bind.
    await createRole(server, {
      name: 'configmap-writer',
      namespace: 'default',
      rules: [{ verbs: ['create', 'delete'], apiGroups: [''], resources: ['configmaps'] }],
    });
    await bind(server, {
      name: 'dev-configmaps',
      namespace: 'default',
      role: { kind: 'Role', name: 'configmap-writer' },
      subjects: [group('dev')],
    });
    await waitForAccess(server, {
      user: 'alice',
      groups: ['dev', 'qa', 'system:authenticated'],
      resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'default' },
    });
    const create = await server.request('POST', paths.configmaps, { credentials: alice, body: configMap });
    assert.equal(create.status, 201, create.text);
    assert.match(String(create.headers['audit-id']), /^[0-9a-f-]{36}$/);
    const del = await server.request('DELETE', `${paths.configmaps}/x`, { credentials: alice });
    assert.equal(del.status, 200);
  });

  test('the client audit ID is echoed', async () => {
    const r = await server.request('GET', '/version', { headers: { 'audit-id': 'my-audit-id' } });
    assert.equal(r.headers['audit-id'], 'my-audit-id');
  });

  test('impersonation acts as the impersonated user and is refused without a user', async () => {
    // alice may impersonate users and groups only once RBAC lets her.
    const before = await server.request('GET', paths.secrets, {
      credentials: alice,
      headers: { 'impersonate-user': 'bob' },
    });
    assert.equal(before.status, 403);
    assert.equal(
      before.json()['message'],
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    await createRole(server, {
      name: 'impersonator',
      rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] }],
    });
    await bind(server, {
      name: 'alice-impersonates',
      role: { kind: 'ClusterRole', name: 'impersonator' },
      subjects: [user('alice')],
    });
    await waitForAccess(server, {
      user: 'alice',
      groups: ['dev', 'qa', 'system:authenticated'],
      resourceAttributes: { verb: 'impersonate', resource: 'groups', name: 'system:unauthenticated' },
    });
    const asAnonymous = await server.request('GET', paths.secrets, {
      headers: { 'impersonate-user': 'system:anonymous' },
    });
    assert.equal(asAnonymous.status, 403);
    assert.match(String(asAnonymous.json()['message']), /User "system:anonymous" cannot list/);
    const asBob = await server.request('GET', paths.secrets, {
      credentials: alice,
      headers: { 'impersonate-user': 'bob', 'impersonate-group': 'system:unauthenticated' },
    });
    // bob in system:unauthenticated only (no system:authenticated added): nothing allows him.
    assert.equal(asBob.status, 403);
    assert.match(String(asBob.json()['message']), /User "bob" cannot list resource "secrets"/);
    const groupOnly = await server.request('GET', paths.secrets, { headers: { 'impersonate-group': 'g' } });
    assert.equal(groupOnly.status, 500);
    assert.equal(
      groupOnly.text,
      `Internal Server Error: "${paths.secrets}": requested [{Group  g    }] without impersonating a user\n`,
    );
  });
});

describe('anonymous requests are off by default', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(() => server.stop());

  test('requests without credentials get 401 with upstream Status, health included', async () => {
    for (const path of [paths.secrets, ...paths.health, ...paths.discovery, '/healthz/ping', '/metrics']) {
      const r = await server.request('GET', path, { credentials: 'none' });
      assert.equal(r.status, 401, path);
      assert.deepEqual(r.json(), unauthorized);
    }
    assert.equal((await server.request('GET', paths.secrets)).status, 200);
  });
});

describe('request deadlines', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false });
  });
  after(() => server.stop());

  test('an invalid ?timeout= is a 400 with upstream text; a good one passes', async () => {
    const bad = await server.request('GET', '/api/v1/namespaces?timeout=soon');
    assert.equal(bad.status, 400);
    assert.equal(
      bad.json()['message'],
      'invalid timeout specified in the request URL - time: invalid duration "soon"',
    );
    assert.equal((await server.request('GET', '/api/v1/namespaces?timeout=30s')).status, 200);
  });

  test('a request still running at its deadline gets upstream 504', async () => {
    // A 3 MiB body the client sends slowly keeps the create handler reading past a 200ms timeout.
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps?timeout=200ms',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          ca: server.pki.caCert,
          cert: server.pki.adminCert,
          key: server.pki.adminKey,
          agent: false,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"apiVersion":"v1",');
      setTimeout(() => req.end('"kind":"ConfigMap","metadata":{"name":"late"}}'), 1000);
    });
    assert.equal(r.status, 504);
    assert.deepEqual(JSON.parse(r.body), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
      reason: 'Timeout',
      details: {},
      code: 504,
    });
  });
});

describe('the audit stage', () => {
  let server: TestServer;
  const events: AuditEvent[] = [];
  let throwing = false;
  before(async () => {
    server = await startTestServer({
      controllers: false,
      anonymousAuth: true,
      audit: {
        policy: parseAuditPolicy(
          '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}',
        ),
        sink: {
          process: (e) => {
            if (throwing) throw new Error('sink down');
            if (e.stage === 'ResponseComplete') events.push(e);
          },
        },
      },
    });
  });
  after(() => server.stop());

  test('every request becomes an event with its user, impersonated user, object and outcome', async () => {
    await server.request('GET', '/api/v1/namespaces/kube-system/secrets', {
      headers: { 'audit-id': 'audit-1', 'impersonate-user': 'system:anonymous' },
    });
    await server.request('GET', '/version', { credentials: 'none', headers: { 'audit-id': 'audit-2' } });
    const until = Date.now() + 5000;
    while (events.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const one = events.find((e) => e.auditID === 'audit-1');
    assert.ok(one);
    assert.equal(one.user.username, 'kubernetes-admin');
    assert.deepEqual(one.user.groups, ['system:masters', 'system:authenticated']);
    assert.equal(one.impersonatedUser?.username, 'system:anonymous');
    assert.deepEqual(one.objectRef, { resource: 'secrets', namespace: 'kube-system', apiVersion: 'v1' });
    assert.equal(one.verb, 'list');
    assert.equal(one.responseStatus?.code, 403);
    assert.equal(one.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.equal(one.annotations?.['authorization.k8s.io/reason'], '');
    const two = events.find((e) => e.auditID === 'audit-2');
    assert.equal(two?.user.username, 'system:anonymous');
    assert.equal(two?.responseStatus?.code, 200);
    assert.equal(two?.annotations?.['authorization.k8s.io/decision'], 'allow');
    assert.equal(
      two?.annotations?.['authorization.k8s.io/reason'],
      'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"',
    );
  });

  test('a failing sink does not take the server down', async () => {
    throwing = true;
    assert.equal((await server.request('GET', '/version')).status, 200);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    throwing = false;
  });
});
