/**
 * Fault injection through `startCluster()` and `--faults FILE`: the next N matching requests fail
 * with the status asked for (worded as kube-apiserver words it, Retry-After included), expire with
 * 410, wait, or have their watches closed or dropped; other users and resources are untouched;
 * every fault is counted in /metrics; the file's rules follow its changes.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startCluster } from '../../src/index.js';
import type { Cluster } from '../../src/index.js';
import { ApiError, RestClient } from '../../src/client/rest-client.js';
import { startServer } from '../../src/cmd/serve/start.js';
import { waitFor } from '../support/poll.js';

const ns = 'default';

/** A request over HTTPS with the admin certificate: status, headers and body as they came. */
function raw(c: Cluster, method: string, path: string, body?: unknown) {
  const user = c.kubeconfigObject.users[0]!.user;
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(
        new URL(path, c.url),
        {
          method,
          ca: c.caCert,
          cert: Buffer.from(user['client-certificate-data']!, 'base64'),
          key: Buffer.from(user['client-key-data']!, 'base64'),
          headers: { 'content-type': 'application/json', accept: 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    },
  );
}

function message(err: unknown): string {
  if (!(err instanceof ApiError)) return String(err);
  const { reason, message } = err.status ?? {};
  return `${err.code} ${typeof reason === 'string' ? reason : ''}: ${typeof message === 'string' ? message : ''}`;
}

test('the next N matching requests fail with the status asked for, as kube-apiserver words it', async (t) => {
  const c = await startCluster({ controllers: false, nodes: 0 });
  t.after(() => c.stop());
  const cm = await c.client.core.v1.configMaps.create(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { v: '0' } },
    { namespace: ns },
  );
  const handle = c.faults.inject({
    verb: 'update',
    resource: 'configmaps',
    namespace: ns,
    count: 2,
    status: 409,
  });
  for (let i = 0; i < 2; i++) {
    await assert.rejects(c.client.core.v1.configMaps.update({ ...cm, data: { v: String(i) } }), (err) => {
      assert.equal(
        message(err),
        '409 Conflict: Operation cannot be fulfilled on configmaps "target": the object has been modified; please apply your changes to the latest version and try again',
      );
      return true;
    });
  }
  assert.equal(handle.remaining, 0);
  assert.equal(handle.hits, 2);
  // Used up: the third goes through; reads and other resources were never touched.
  await c.client.core.v1.configMaps.update({ ...cm, data: { v: '3' } });
  assert.equal(c.faults.injected, 2);

  // 429 with Retry-After, as a Status with details.retryAfterSeconds.
  c.faults.inject({ verb: 'get', resource: 'configmaps', status: 429, retryAfterSeconds: 7, count: 1 });
  const limited = await raw(c, 'GET', `/api/v1/namespaces/${ns}/configmaps/target`);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers['retry-after'], '7');
  assert.deepEqual(JSON.parse(limited.body), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Too many requests, please try again later.',
    reason: 'TooManyRequests',
    details: { retryAfterSeconds: 7 },
    code: 429,
  });

  // 500, 503 and 504, each once, on different verbs.
  c.faults.inject({ verb: 'list', resource: 'configmaps', status: 500, count: 1 });
  await assert.rejects(c.client.core.v1.configMaps.list({ namespace: ns }), (err) => {
    assert.equal(message(err), '500 InternalError: Internal error occurred: injected fault');
    return true;
  });
  c.faults.inject({ verb: 'create', resource: 'secrets', status: 503, retryAfterSeconds: 2, count: 1 });
  const unavailable = await raw(c, 'POST', `/api/v1/namespaces/${ns}/secrets`, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's' },
  });
  assert.equal(unavailable.status, 503);
  assert.equal(unavailable.headers['retry-after'], '2');
  c.faults.inject({ verb: 'delete', resource: 'configmaps', status: 504, count: 1 });
  await assert.rejects(c.client.core.v1.configMaps.delete('target', { namespace: ns }), (err) => {
    assert.equal(
      message(err),
      '504 Timeout: Timeout: request did not complete within requested timeout - context deadline exceeded',
    );
    return true;
  });

  // 410 Gone for an expired resourceVersion.
  c.faults.inject({ verb: 'list', resource: 'configmaps', expire: true, count: 1 });
  await assert.rejects(c.client.core.v1.configMaps.list({ namespace: ns, resourceVersion: '5' }), (err) => {
    assert.equal(message(err), '410 Expired: too old resource version: 5 (injected fault)');
    return true;
  });

  // Latency: the request is answered, later.
  c.faults.inject({ verb: 'get', resource: 'configmaps', latency: '300ms', count: 1 });
  const started = performance.now();
  await c.client.core.v1.configMaps.get('target', { namespace: ns });
  assert.ok(performance.now() - started >= 290, 'the request waited');

  // Every one is counted in /metrics.
  const metrics = await raw(c, 'GET', '/metrics');
  assert.match(
    metrics.body,
    /^nanokube_injected_faults_total\{fault="status_409",resource="configmaps",verb="update"\} [1-9]\d*$/m,
  );
  assert.match(
    metrics.body,
    /^nanokube_injected_faults_total\{fault="expire",resource="configmaps",verb="list"\} [1-9]\d*$/m,
  );
  assert.equal(c.faults.injected, 8);
});

test('rules match users, names and subresources; other requests are untouched; clear() removes them', async (t) => {
  const c = await startCluster({ controllers: false, nodes: 0 });
  t.after(() => c.stop());
  await c.client.core.v1.serviceAccounts.create(
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    { namespace: ns },
  );
  await c.rest.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'robot-read' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    },
  });
  await c.rest.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'robot-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'robot-read' },
      subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: ns }],
    },
  });
  const tr = await c.rest.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  });
  const robot = new RestClient({
    server: c.url,
    ca: c.caCert,
    token: (tr['status'] as { token: string }).token,
  });
  t.after(() => robot.close());
  c.faults.inject({ user: 'system:serviceaccount:default:robot', status: 500 });
  c.faults.inject({ resource: 'namespaces', name: 'kube-public', status: 503 });
  // (Once RBAC has the binding: a fault hits only requests the server would serve.)
  await waitFor('the robot to be faulted', () =>
    robot.request('GET', `/api/v1/namespaces/${ns}/configmaps`).then(
      () => false,
      (err: unknown) => /injected fault/.test(String(err)),
    ),
  );
  await c.client.core.v1.configMaps.list({ namespace: ns });
  await assert.rejects(
    c.client.core.v1.namespaces.get('kube-public'),
    (err) => err instanceof ApiError && err.code === 503,
  );
  await c.client.core.v1.namespaces.get('kube-system');
  // A subresource rule does not hit the main resource, and the other way round.
  c.faults.inject({ resource: 'serviceaccounts/token', status: 409 });
  await c.client.core.v1.serviceAccounts.get('robot', { namespace: ns });
  await assert.rejects(
    c.rest.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    }),
    (err) => err instanceof ApiError && err.code === 409,
  );
  c.faults.clear();
  await robot.request('GET', `/api/v1/namespaces/${ns}/configmaps`);
  await c.client.core.v1.namespaces.get('kube-public');
});

test('watch faults close open and new watches cleanly, or drop them', async (t) => {
  const c = await startCluster({ controllers: false, nodes: 0 });
  t.after(() => c.stop());
  const user = c.kubeconfigObject.users[0]!.user;
  const https = new RestClient({
    server: c.url,
    ca: c.caCert,
    cert: Buffer.from(user['client-certificate-data']!, 'base64').toString(),
    key: Buffer.from(user['client-key-data']!, 'base64').toString(),
  });
  t.after(() => https.close());
  const stop = new AbortController();
  t.after(() => stop.abort());
  // Seeded so that every watch starts with an ADDED event: it is open once that arrives.
  await c.client.core.v1.configMaps.create(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seed' } },
    { namespace: ns },
  );
  await c.client.core.v1.secrets.create(
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'seed' } },
    { namespace: ns },
  );
  const follow = (path: string): { opened: Promise<void>; ended: Promise<'ended'> } => {
    let markOpen!: () => void;
    const opened = new Promise<void>((r) => (markOpen = r));
    const ended = (async () => {
      for await (const ev of https.watch(path, stop.signal)) if (ev.type === 'ADDED') markOpen();
      return 'ended' as const;
    })();
    return { opened, ended };
  };
  // An open watch is closed when the rule is added: it ends without an error.
  const open = follow(`/api/v1/namespaces/${ns}/configmaps?watch=1`);
  const secrets = follow(`/api/v1/namespaces/${ns}/secrets?watch=1`);
  await Promise.all([open.opened, secrets.opened]);
  const closing = c.faults.inject({ watch: 'close', resource: 'configmaps', count: 2 });
  assert.equal(await open.ended, 'ended');
  assert.equal(closing.hits, 1);
  // A new watch starts, then is closed.
  assert.equal(await follow(`/api/v1/namespaces/${ns}/configmaps?watch=1`).ended, 'ended');
  assert.equal(closing.remaining, 0);
  // Dropped: the stream is reset, the client sees an error, not an end.
  c.faults.inject({ watch: 'drop', resource: 'configmaps', count: 1 });
  await assert.rejects(follow(`/api/v1/namespaces/${ns}/configmaps?watch=1`).ended);
  // The secrets watch was never touched.
  const still = await Promise.race([secrets.ended, new Promise((r) => setTimeout(() => r('open'), 200))]);
  assert.equal(still, 'open');
});

test('--faults FILE: refused when bad at start, followed while serving, a bad change keeps the rules', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nanokube-faults-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'faults.yaml');
  await writeFile(file, 'faults:\n  - status: 418\n');
  await assert.rejects(
    startServer({
      dataDir: join(dir, 'bad'),
      storage: 'memory',
      bindAddress: '127.0.0.1',
      securePort: 0,
      controllers: false,
      faultsFile: file,
    }),
    /--faults .*faults\.yaml: faults\[0\]\.status: must be one of 409, 429, 500, 503, 504/,
  );
  await writeFile(file, 'faults:\n  - verb: get\n    resource: namespaces\n    status: 500\n');
  const errors: string[] = [];
  const server = await startServer({
    dataDir: join(dir, 'good'),
    storage: 'memory',
    bindAddress: '127.0.0.1',
    securePort: 0,
    controllers: false,
    faultsFile: file,
    log: { v: () => undefined, info: () => undefined, error: (m) => errors.push(m) },
  });
  t.after(() => server.close());
  const client = new RestClient({
    server: server.url,
    ca: server.pki.caCert,
    cert: server.pki.adminCert,
    key: server.pki.adminKey,
  });
  t.after(() => client.close());
  await assert.rejects(
    client.request('GET', '/api/v1/namespaces/default'),
    (err) => err instanceof ApiError && err.code === 500,
  );
  // A change is picked up: now only kube-system fails.
  await writeFile(
    file,
    'faults:\n  - verb: get\n    resource: namespaces\n    name: kube-system\n    status: 503\n',
  );
  await waitFor('the new rules', async () => {
    await client.request('GET', '/api/v1/namespaces/default');
    return true;
  });
  await assert.rejects(
    client.request('GET', '/api/v1/namespaces/kube-system'),
    (err) => err instanceof ApiError && err.code === 503,
  );
  // A bad change is logged; the rules in effect stay.
  await writeFile(file, 'faults: [{ status: 1 }]\n');
  await waitFor('the bad change to be reported', () =>
    errors.some((e) => /faults\[0\]\.status/.test(e) && /previous rules stay/.test(e)),
  );
  await assert.rejects(
    client.request('GET', '/api/v1/namespaces/kube-system'),
    (err) => err instanceof ApiError && err.code === 503,
  );
});
