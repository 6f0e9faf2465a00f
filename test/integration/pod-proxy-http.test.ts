/**
 * pods/proxy and services/proxy reaching the servers of simulated pods (the upstream
 * `[Conformance]` specs "Proxy version v1", "should serve a basic image on each replica", the
 * kubectl Guestbook and Update Demo): porter's ports over HTTP and TLS, links rewritten into the
 * proxy, the root redirect, every method; serve-hostname's hostname; the update demo's data.json;
 * the guestbook's frontend reaching its backends by Service name over the simulated network.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = '/api/v1/namespaces/default';
const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';

describe('HTTP through the API server proxy to simulated pods', () => {
  let s: TestServer;

  const create = async (path: string, body: unknown): Promise<void> => {
    const r = await s.request('POST', path, { body });
    assert.equal(r.status, 201, r.text);
  };
  const running = (name: string): Promise<unknown> =>
    waitFor(`pod ${name} running`, async () => {
      const r = await s.request('GET', `${ns}/pods/${name}`);
      return r.json<{ status?: { phase?: string } }>().status?.phase === 'Running' ? true : undefined;
    });
  const deployment = (
    name: string,
    labels: Record<string, string>,
    args: string[],
    replicas: number,
    port: number,
  ): unknown => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'c', image: agnhost, args, ports: [{ containerPort: port }] }] },
      },
    },
  });

  before(async () => {
    s = await startTestServer({ nodes: 2, storage: 'memory' });
    await waitFor('the default ServiceAccount', async () =>
      (await s.request('GET', `${ns}/serviceaccounts/default`)).status === 200 ? true : undefined,
    );
    await create(`${ns}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'porter', labels: { app: 'porter' } },
      spec: {
        containers: [
          {
            name: 'porter',
            image: agnhost,
            command: ['/agnhost', 'porter'],
            env: [
              { name: 'SERVE_PORT_80', value: '<a href="/rewriteme">test</a>' },
              { name: 'SERVE_PORT_160', value: 'foo' },
              { name: 'SERVE_TLS_PORT_443', value: '<a href="/tlsrewriteme">test</a>' },
            ],
            ports: [{ name: 'dest1', containerPort: 160 }],
          },
        ],
      },
    });
    await create(`${ns}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'json', labels: { app: 'json' } },
      spec: {
        containers: [
          {
            name: 'c',
            image: agnhost,
            command: ['/agnhost', 'porter', '--json-response'],
            env: [{ name: 'SERVE_PORT_80', value: 'foo' }],
          },
        ],
      },
    });
    await create(`${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'porter' },
      spec: { selector: { app: 'porter' }, ports: [{ name: 'portname1', port: 80, targetPort: 'dest1' }] },
    });
    await create(`${ns}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'demo' },
      spec: {
        containers: [
          {
            name: 'update-demo',
            image: 'registry.k8s.io/e2e-test-images/nautilus:1.7',
            ports: [{ containerPort: 80 }],
          },
        ],
      },
    });
    for (const name of ['porter', 'json', 'demo']) await running(name);
  });

  after(() => s.stop());

  it('pods/proxy: the first declared port, a named scheme and port, links rewritten into the proxy', async () => {
    const get = async (path: string): Promise<[number, string]> => {
      const r = await s.request('GET', `${ns}/pods/${path}`);
      return [r.status, r.text];
    };
    assert.deepEqual(await get('porter/proxy/'), [200, 'foo']);
    assert.deepEqual(await get('porter:160/proxy/any/path'), [200, 'foo']);
    assert.deepEqual(await get('porter:80/proxy/'), [
      200,
      `<a href="${ns}/pods/porter:80/proxy/rewriteme">test</a>`,
    ]);
    assert.deepEqual(await get('https:porter:443/proxy/'), [
      200,
      `<a href="${ns}/pods/https:porter:443/proxy/tlsrewriteme">test</a>`,
    ]);
    const refused = await s.request('GET', `${ns}/pods/porter:81/proxy/`);
    assert.equal(refused.status, 503);
    assert.match(
      refused.json()['message'] as string,
      /^error trying to reach service: dial tcp 10\.244\.\d+\.\d+:81: connect: connection refused$/,
    );
    const mixed = await s.request('GET', `${ns}/pods/https:porter:160/proxy/`);
    assert.equal(
      mixed.json()['message'],
      'error trying to reach service: http: server gave HTTP response to HTTPS client',
    );
  });

  it('redirects GET and HEAD of the bare path (301) and forwards every other method', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await s.request(method, `${ns}/pods/json/proxy?method=${method}`);
      assert.equal(r.status, 301);
      assert.equal(r.headers['location'], `${ns}/pods/json/proxy/?method=${method}`);
    }
    for (const method of ['DELETE', 'OPTIONS', 'PATCH', 'POST', 'PUT']) {
      for (const path of [
        `${ns}/pods/json/proxy?method=${method}`,
        `${ns}/pods/json/proxy/some/path/with/${method}`,
      ]) {
        const r = await s.request(method, path);
        assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
        assert.deepEqual(r.json(), { Method: method, Body: 'foo' });
        assert.equal(r.headers['content-type'], 'application/json');
      }
    }
  });

  it('services/proxy: a named port reaches the endpoint’s target port', async () => {
    await waitFor('porter endpoints', async () => {
      const r = await s.request('GET', `${ns}/services/porter:portname1/proxy/`);
      return r.status === 200 ? r.text : undefined;
    });
    const r = await s.request('GET', `${ns}/services/http:porter:portname1/proxy/`);
    assert.deepEqual([r.status, r.text], [200, 'foo']);
  });

  it('the update demo serves its data.json; a file the image may hold is not made up', async () => {
    const r = await s.request('GET', `${ns}/pods/demo/proxy/data.json`);
    assert.deepEqual(
      [r.status, r.headers['content-type'], r.text],
      [200, 'application/json', '{\n  "image": "nautilus.jpg"\n}\n'],
    );
    const unknown = await s.request('GET', `${ns}/pods/demo/proxy/etc/os-release`);
    assert.equal(unknown.status, 502);
    assert.equal(unknown.json()['message'], '/etc/os-release may come with the image');
  });

  it('serve-hostname replicas answer their own names', async () => {
    await create('/apis/apps/v1/namespaces/default/replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'hostnames' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { name: 'hostnames' } },
        template: {
          metadata: { labels: { name: 'hostnames' } },
          spec: {
            containers: [
              { name: 'c', image: agnhost, args: ['serve-hostname'], ports: [{ containerPort: 9376 }] },
            ],
          },
        },
      },
    });
    const names = await waitFor<string[]>('two running replicas', async () => {
      const r = await s.request('GET', `${ns}/pods?labelSelector=name%3Dhostnames`);
      const items = r.json<{ items: { metadata: { name: string }; status?: { phase?: string } }[] }>().items;
      const up = items.filter((p) => p.status?.phase === 'Running').map((p) => p.metadata.name);
      return up.length === 2 ? up : undefined;
    });
    for (const name of names) {
      const r = await s.request('GET', `${ns}/pods/${name}/proxy/`);
      assert.deepEqual([r.status, r.text], [200, name]);
    }
  });

  it('the guestbook: the frontend sets through agnhost-primary and gets from agnhost-replica', async () => {
    const backend = { app: 'agnhost', tier: 'backend' };
    await create(
      '/apis/apps/v1/namespaces/default/deployments',
      deployment(
        'agnhost-primary',
        { ...backend, role: 'primary' },
        ['guestbook', '--http-port', '6379'],
        1,
        6379,
      ),
    );
    await create(
      '/apis/apps/v1/namespaces/default/deployments',
      deployment(
        'agnhost-replica',
        { ...backend, role: 'replica' },
        ['guestbook', '--replicaof', 'agnhost-primary', '--http-port', '6379'],
        2,
        6379,
      ),
    );
    await create(
      '/apis/apps/v1/namespaces/default/deployments',
      deployment(
        'frontend',
        { app: 'guestbook', tier: 'frontend' },
        ['guestbook', '--backend-port', '6379'],
        3,
        80,
      ),
    );
    for (const [name, selector, port] of [
      ['agnhost-primary', { ...backend, role: 'primary' }, 6379],
      ['agnhost-replica', { ...backend, role: 'replica' }, 6379],
      ['frontend', { app: 'guestbook', tier: 'frontend' }, 80],
    ] as const) {
      await create(`${ns}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { selector, ports: [{ port }] },
      });
    }
    const guestbook = (q: string): Promise<string | undefined> =>
      s
        .request('GET', `${ns}/services/frontend/proxy/guestbook?${q}`)
        .then((r) => (r.status === 200 ? r.text : undefined));
    await waitFor('the frontend serving', async () =>
      (await guestbook('cmd=get&key=messages&value=')) === '{"data":""}' ? true : undefined,
    );
    assert.equal(await guestbook('cmd=set&key=messages&value=TestEntry'), '{"message":"Updated"}');
    // Both replicas have it: every get, whichever replica answers, returns it.
    for (let i = 0; i < 6; i++)
      assert.equal(await guestbook('cmd=get&key=messages&value='), '{"data":"TestEntry"}');
  });
});
