/**
 * Integration: the in-process transport `nanokube serve` gives its own components (* "an in-process transport (same semantics, no TLS/HTTP)"): requests and watches through
 * ApiServer.dispatchInProcess run the whole request chain (authentication as the loopback user,
 * impersonation, admission, Status errors), a cancelled watch ends on the server, and nothing that
 * arrives over the network can pass for an in-process caller.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, RestClient } from '../../src/client/rest-client.js';
import { inProcessTransport, loopbackUser } from '../../src/cmd/serve/in-process-transport.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let server: TestServer;
let client: RestClient;

before(async () => {
  server = await startTestServer();
  client = new RestClient({
    transport: inProcessTransport(server.api, { user: loopbackUser(), userAgent: 'in-process-test' }),
  });
});
after(async () => {
  client.close();
  await server.close();
});

const cm = (name: string, data: Record<string, string> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

describe('in-process transport', () => {
  test('create, get, list and a Status error, as over HTTPS', async () => {
    const created = await client.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('ip-a', { k: 'v' }),
    });
    assert.equal((created['metadata'] as { name: string }).name, 'ip-a');
    const got = await client.request('GET', '/api/v1/namespaces/default/configmaps/ip-a');
    assert.deepEqual(got['data'], { k: 'v' });
    const list = await client.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=x%3Dy');
    assert.deepEqual(list['items'], []);
    const err = await client
      .request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('ip-a') })
      .catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'AlreadyExists');
    assert.match(err.message, /configmaps "ip-a" already exists/);
  });

  test('admission runs: creating into a namespace that does not exist is refused', async () => {
    const err = await client
      .request('POST', '/api/v1/namespaces/nowhere/configmaps', { body: cm('x') })
      .catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 404);
    assert.match(err.message, /namespaces "nowhere" not found/);
  });

  test('the caller is the loopback user, and impersonation applies to it', async () => {
    const path = '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews';
    const body = { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' };
    const self = await client.request('POST', path, { body });
    const info = (self['status'] as { userInfo: { username: string; groups: string[] } }).userInfo;
    assert.equal(info.username, 'system:apiserver');
    assert.ok(info.groups.includes('system:masters'));
    const impersonating = new RestClient({
      transport: {
        send: (r) =>
          server.api.dispatchInProcess(
            { ...r, headers: { ...r.headers, 'impersonate-user': 'jane' } },
            loopbackUser(),
          ),
        stats: () => ({ sessions: 0, streams: 0 }),
        close: () => undefined,
      },
    });
    const as = await impersonating.request('POST', path, { body });
    assert.equal((as['status'] as { userInfo: { username: string } }).userInfo.username, 'jane');
  });

  test('a watch streams events and ends on the server when cancelled', async () => {
    const abort = new AbortController();
    const seen: string[] = [];
    const watching = (async () => {
      for await (const ev of client.watch(
        '/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dip-w',
        abort.signal,
      )) {
        seen.push(`${ev.type} ${(ev.object['data'] as Record<string, string> | undefined)?.['n'] ?? ''}`);
        if (seen.length === 2) abort.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    await client.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('ip-w', { n: '1' }) });
    await client.request('PATCH', '/api/v1/namespaces/default/configmaps/ip-w', {
      body: { data: { n: '2' } },
      contentType: 'application/merge-patch+json',
    });
    await watching;
    assert.deepEqual(seen, ['ADDED 1', 'MODIFIED 2']);
    assert.equal(client.stats().streams, 0, 'no response left open');
  });

  test('a refused watch throws the Status error', async () => {
    const abort = new AbortController();
    const err = await (async () => {
      for await (const ev of client.watch('/api/v1/nothings?watch=1', abort.signal)) assert.fail(ev.type);
    })().catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 404);
  });

  test('a network request without credentials is refused, never an in-process caller', async () => {
    const r = await server.request('GET', '/api/v1/namespaces/default/configmaps', { credentials: 'none' });
    assert.equal(r.status, 401);
    assert.equal(r.json()['reason'], 'Unauthorized');
  });

  test('with --anonymous-auth it is system:anonymous, never an in-process caller', async () => {
    const anon = await startTestServer({ controllers: false, anonymousAuth: true });
    try {
      const r = await anon.request('GET', '/api/v1/namespaces/default/configmaps', { credentials: 'none' });
      assert.equal(r.status, 403);
      assert.match(r.text, /User \\"system:anonymous\\" cannot list resource \\"configmaps\\"/);
    } finally {
      await anon.stop();
    }
  });

  test('every answer comes from the event loop: a caller looping on requests cannot starve I/O', async () => {
    // A Job controller retrying a 409 at once used to spin in microtasks, its informer never
    // getting the watch event that would end the conflicts.
    let loopTurned = false;
    setImmediate(() => (loopTurned = true));
    await client.request('GET', '/api/v1/namespaces/default');
    assert.ok(loopTurned, 'the event loop ran before the answer was handed over');
  });

  test('a closed client refuses new requests', async () => {
    const closed = new RestClient({
      transport: inProcessTransport(server.api, { user: loopbackUser(), userAgent: 'closing' }),
    });
    closed.close();
    await assert.rejects(closed.request('GET', '/api/v1/namespaces'), /the client was closed/);
  });
});
