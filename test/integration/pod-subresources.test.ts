/**
 * The pod subresources beyond binding and eviction, as kube-apiserver v1.27 answers them
 * without a kubelet: pods/ephemeralcontainers (upstream's EphemeralContainersStrategy), pods/log,
 * exec, attach, portforward and the proxy subresources of pods, nodes and services, and
 * serviceaccounts/token.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ controllers: false, storage: 'memory' });
});
after(() => s.stop());

const pods = '/api/v1/namespaces/default/pods';
type Json = Record<string, unknown>;
const pod = (name: string, containers: Json[], extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers, ...extra },
});
const smp = 'application/strategic-merge-patch+json';

function causes(r: { json(): Json }): string[] {
  const details = r.json()['details'] as { causes?: { field?: string; message?: string }[] };
  return (details.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}

test('pods/ephemeralcontainers: discovery, add, refuse changes and forbidden fields', async () => {
  const disc = (await s.request('GET', '/api/v1')).json<{ resources: Json[] }>().resources;
  assert.deepEqual(
    disc.find((r) => r['name'] === 'pods/ephemeralcontainers'),
    {
      name: 'pods/ephemeralcontainers',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    },
  );
  const created = await s.request('POST', pods, {
    body: pod('eph', [{ name: 'app', image: 'nginx' }], { nodeName: 'n1' }),
  });
  assert.equal(created.status, 201, created.text);
  const got = await s.request('GET', `${pods}/eph/ephemeralcontainers`);
  assert.equal(got.status, 200);
  assert.equal(got.json()['kind'], 'Pod');

  // Only spec.ephemeralContainers is taken: labels and other spec changes are dropped.
  const add = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: smp,
    body: {
      metadata: { labels: { x: 'y' } },
      spec: {
        activeDeadlineSeconds: 5,
        ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'app', stdin: true }],
      },
    },
  });
  assert.equal(add.status, 200, add.text);
  const after = add.json();
  assert.equal((after['metadata'] as Json)['labels'], undefined);
  const spec = after['spec'] as Json;
  assert.equal(spec['activeDeadlineSeconds'], undefined);
  const eph = (spec['ephemeralContainers'] as Json[])[0]!;
  assert.equal(eph['name'], 'debug');
  assert.equal(eph['terminationMessagePath'], '/dev/termination-log');
  assert.equal(eph['imagePullPolicy'], 'Always');

  // A regular pod update may not touch them.
  const viaPod = await s.request('PATCH', `${pods}/eph`, {
    contentType: smp,
    body: { spec: { ephemeralContainers: [{ name: 'other', image: 'busybox' }] } },
  });
  assert.equal(viaPod.status, 422);

  const changed = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: 'application/json-patch+json',
    raw: JSON.stringify([{ op: 'replace', path: '/spec/ephemeralContainers/0/image', value: 'alpine' }]),
  });
  assert.equal(changed.status, 422, changed.text);
  const msg = String(changed.json()['message']);
  assert.ok(
    msg.startsWith(
      'Pod "eph" is invalid: spec.ephemeralContainers.debug: Forbidden: existing ephemeral containers "debug" may not be changed\n',
    ),
    msg,
  );

  const removed = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: 'application/merge-patch+json',
    body: { spec: { ephemeralContainers: null } },
  });
  assert.equal(removed.status, 422, removed.text);
  assert.deepEqual(causes(removed), [
    'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed\n',
  ]);

  const bad = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: smp,
    body: {
      spec: {
        ephemeralContainers: [
          {
            name: 'app',
            image: 'busybox',
            targetContainerName: 'nope',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '1' } },
            readinessProbe: { exec: { command: ['true'] } },
            lifecycle: { preStop: { exec: { command: ['true'] } } },
          },
        ],
      },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(causes(bad), [
    'spec.ephemeralContainers[0].name: Duplicate value: "app"',
    'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
    'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
  ]);

  const post = await s.request('POST', `${pods}/eph/ephemeralcontainers`, { body: {} });
  assert.equal(post.status, 405);
});

async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const nodeBody = (name: string, status: Json): Json => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status,
});

test('pods/log, exec, attach, portforward without a kubelet', async () => {
  const port = await closedPort();
  assert.equal(
    (
      await s.request('POST', '/api/v1/nodes', {
        body: nodeBody('n1', {
          addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
          daemonEndpoints: { kubeletEndpoint: { Port: port } },
        }),
      })
    ).status,
    201,
  );
  assert.equal((await s.request('POST', '/api/v1/nodes', { body: nodeBody('bare', {}) })).status, 201);
  const two = [
    { name: 'a', image: 'nginx' },
    { name: 'b', image: 'nginx' },
  ];
  for (const [name, node] of [
    ['pending', ''],
    ['web', 'n1'],
    ['lost', 'ghost'],
    ['bare', 'bare'],
  ] as const) {
    const body = pod(
      name,
      name === 'pending' ? [{ name: 'a', image: 'nginx' }] : two,
      node === '' ? {} : { nodeName: node },
    );
    assert.equal((await s.request('POST', pods, { body })).status, 201);
  }
  const expect = async (
    method: string,
    path: string,
    code: number,
    message: string,
    headers = {},
  ): Promise<void> => {
    const r = await s.request(method, path, { headers });
    assert.equal(r.status, code, `${method} ${path}: ${r.text}`);
    assert.equal(r.json()['message'], message, `${method} ${path}`);
  };
  const empty = await s.request('GET', `${pods}/pending/log`);
  assert.equal(empty.status, 204);
  assert.equal(empty.text, '');
  await expect('GET', `${pods}/nope/log`, 404, 'pods "nope" not found');
  await expect(
    'GET',
    `${pods}/web/log`,
    400,
    'a container name must be specified for pod web, choose one of: [a b]',
  );
  await expect('GET', `${pods}/web/log?container=x`, 400, 'container x is not valid for pod web');
  await expect(
    'GET',
    `${pods}/web/log?container=a&tailLines=-1`,
    422,
    'PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
  );
  await expect('GET', `${pods}/lost/log?container=a`, 404, 'nodes "ghost" not found');
  await expect(
    'GET',
    `${pods}/bare/log?container=a`,
    500,
    'no preferred addresses found; known addresses: []',
  );
  await expect(
    'GET',
    `${pods}/web/log?container=a&tailLines=5`,
    500,
    `Get "https://127.0.0.1:${port}/containerLogs/default/web/a?tailLines=5": dial tcp 127.0.0.1:${port}: connect: connection refused`,
  );
  await expect('DELETE', `${pods}/web/log`, 405, 'delete is not supported on resources of kind "pods/log"');

  await expect('POST', `${pods}/pending/exec?command=ls`, 400, 'pod pending does not have a host assigned');
  await expect(
    'POST',
    `${pods}/web/exec?command=ls`,
    400,
    'a container name must be specified for pod web, choose one of: [a b]',
  );
  await expect('POST', `${pods}/web/exec?container=a&command=ls`, 400, 'Upgrade request required');
  await expect('GET', `${pods}/web/attach?container=b`, 400, 'Upgrade request required');
  await expect('POST', `${pods}/web/portforward?ports=80`, 400, 'Upgrade request required');
  await expect(
    'POST',
    `${pods}/web/exec?container=a&command=ls`,
    500,
    `error dialing backend: dial tcp 127.0.0.1:${port}: connect: connection refused`,
    { connection: 'Upgrade', upgrade: 'SPDY/3.1' },
  );
  await expect('PUT', `${pods}/web/exec`, 405, 'update is not supported on resources of kind "pods/exec"');

  // Proxies: pods without an address, loopback nodes, services without endpoints.
  await expect('GET', `${pods}/web/proxy`, 400, 'address not allowed');
  // A path after /proxy reaches the same subresource.
  await expect('GET', `${pods}/web/proxy/some/path`, 400, 'address not allowed');
  await expect('GET', `${pods}/a:b:c:d/proxy`, 400, 'invalid pod request "a:b:c:d"');
  await expect('GET', '/api/v1/nodes/n1/proxy', 400, 'address not allowed');
  await expect('DELETE', '/api/v1/nodes/ghost/proxy', 404, 'nodes "ghost" not found');
  await expect('GET', '/api/v1/namespaces/default/services/none/proxy', 404, 'endpoints "none" not found');
  await expect('GET', '/api/v1/namespaces/default/services/none:80/proxy', 404, 'services "none" not found');
});

test('serviceaccounts/token: the route is discovered and issues tokens', async () => {
  const disc = (await s.request('GET', '/api/v1')).json<{ resources: Json[] }>().resources;
  assert.deepEqual(
    disc.find((r) => r['name'] === 'serviceaccounts/token'),
    {
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    },
  );
  const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } };
  const sas = '/api/v1/namespaces/default/serviceaccounts';
  const missing = await s.request('POST', `${sas}/robot/token`, { body });
  assert.equal(missing.status, 404, missing.text);
  assert.equal(missing.json()['message'], 'serviceaccounts "robot" not found');
  const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } };
  assert.equal((await s.request('POST', sas, { body: sa })).status, 201);
  const r = await s.request('POST', `${sas}/robot/token`, { body });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json()['kind'], 'TokenRequest');
  assert.match(String((r.json()['status'] as Json)['token']), /^[\w-]+\.[\w-]+\.[\w-]+$/);
});
