/**
 * Integration: the REST client's HTTP/2 transport against a scripted node:http2 server (* seam 6): credentials, resending a request the server never processed (and only that), more
 * sessions when one approaches the server's stream limit, and reconnecting after a session ends.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, createSecureServer } from 'node:http2';
import type {
  Http2SecureServer,
  IncomingHttpHeaders,
  ServerHttp2Session,
  ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, beforeEach, describe, it } from 'node:test';
import { RestClient } from '../../src/client/rest-client.js';
import type { RestClientOptions } from '../../src/client/rest-client.js';
import { ensurePki } from '../../src/cmd/serve/pki.js';
import type { Pki } from '../../src/cmd/serve/pki.js';

type Handler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, session: number) => void;

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

function reply(stream: ServerHttp2Stream, body: unknown): void {
  stream.respond({ ':status': 200, 'content-type': 'application/json' });
  stream.end(JSON.stringify(body));
}

describe('RestClient HTTP/2 transport', () => {
  let dir: string;
  let pki: Pki;
  let server: Http2SecureServer;
  let url: string;
  let handler: Handler;
  let sessions = 0;
  let streams = 0;
  const clients: RestClient[] = [];
  const open = new Set<ServerHttp2Session>();

  const client = (o: Partial<RestClientOptions> = {}): RestClient => {
    const c = new RestClient({ server: url, ca: pki.caCert, cert: pki.adminCert, key: pki.adminKey, ...o });
    clients.push(c);
    return c;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nanokube-h2-'));
    pki = await ensurePki(dir, ['127.0.0.1']);
    server = createSecureServer({
      key: pki.servingKey,
      cert: pki.servingCert,
      ca: pki.caCert,
      requestCert: true,
      rejectUnauthorized: true,
      settings: { maxConcurrentStreams: 10 },
    });
    const ids = new WeakMap<object, number>();
    server.on('session', (s) => {
      ids.set(s, ++sessions);
      open.add(s);
      s.on('close', () => open.delete(s));
    });
    server.on('stream', (stream, headers) => {
      streams++;
      stream.on('error', () => undefined);
      handler(stream, headers, ids.get(stream.session!) ?? 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    sessions = 0;
    streams = 0;
  });

  after(async () => {
    for (const c of clients) c.close();
    const closed = new Promise((r) => server.close(r));
    for (const s of open) s.destroy();
    await closed;
    rmSync(dir, { recursive: true, force: true });
  });

  it('presents its client certificate, and a bearer token when it has one', async () => {
    handler = (stream, headers) => {
      const peer = (stream.session!.socket as TLSSocket).getPeerCertificate();
      reply(stream, { cn: peer.subject.CN, auth: headers['authorization'] ?? '' });
    };
    assert.deepEqual(await client().request('GET', '/who'), { cn: 'kubernetes-admin', auth: '' });
    assert.deepEqual(await client({ token: 's3cret' }).request('GET', '/who'), {
      cn: 'kubernetes-admin',
      auth: 'Bearer s3cret',
    });
    assert.throws(() => new RestClient({ server: url, ca: pki.caCert, cert: pki.adminCert }), /cert and key/);
  });

  it('sends a request again, once, when the server refused it or went away before processing it', async () => {
    const handled: string[] = [];
    handler = (stream, headers, session) => {
      const path = String(headers[':path']);
      if (session === 1 && path === '/refused' && streams === 1) {
        stream.close(constants.NGHTTP2_REFUSED_STREAM);
        return;
      }
      // GOAWAY naming /first as the last stream processed: /second, sent after it, was not.
      if (session === 1 && path === '/first') stream.session!.goaway(constants.NGHTTP2_NO_ERROR, stream.id);
      if (session === 1 && path === '/second') return;
      handled.push(`${path} on session ${session}`);
      reply(stream, { path });
    };
    const c = client();
    assert.deepEqual(await c.request('GET', '/refused'), { path: '/refused' });
    assert.deepEqual(handled, ['/refused on session 1']);
    const both = await Promise.all([c.request('GET', '/first'), c.request('GET', '/second')]);
    assert.deepEqual(both, [{ path: '/first' }, { path: '/second' }]);
    assert.deepEqual(handled, ['/refused on session 1', '/first on session 1', '/second on session 2']);
    await until(() => c.stats().sessions === 1, 'the old session to close');
  });

  it('does not send again a request the server may have processed', async () => {
    handler = (stream) => stream.session!.destroy();
    await assert.rejects(client().request('POST', '/once', { body: { a: 1 } }));
    assert.equal(streams, 1);
  });

  it('opens another session when one nears the server limit; aborting a request frees its stream', async () => {
    const held: ServerHttp2Stream[] = [];
    handler = (stream) => held.push(stream);
    const c = client();
    const abort = new AbortController();
    const requests = Array.from({ length: 20 }, (_, i) =>
      c.request('GET', `/slow/${i}`, i === 0 ? { signal: abort.signal } : {}),
    );
    // The server allows 10 concurrent streams: a session is full at 9.
    await until(() => held.length === 20, 'every request to reach the server');
    assert.deepEqual(c.stats(), { sessions: 3, streams: 20 });
    assert.equal(getEventListeners(abort.signal, 'abort').length, 1);
    abort.abort();
    await assert.rejects(requests[0]!, { name: 'AbortError' });
    await until(() => c.stats().streams === 19, 'the aborted stream to close');
    assert.equal(getEventListeners(abort.signal, 'abort').length, 0);
    for (const s of held) if (!s.destroyed) reply(s, { ok: true });
    await Promise.all(requests.slice(1));
    assert.equal(c.stats().streams, 0);
  });

  it('reconnects when the server ends its session, and fails plainly when it cannot connect', async () => {
    handler = (stream, _h, session) => {
      reply(stream, { session });
      stream.session!.close();
    };
    const c = client();
    assert.deepEqual(await c.request('GET', '/a'), { session: 1 });
    await until(() => c.stats().sessions === 0, 'the session to close');
    assert.deepEqual(await c.request('GET', '/b'), { session: 2 });
    const nowhere = new RestClient({ server: 'https://127.0.0.1:1', ca: pki.caCert });
    await assert.rejects(nowhere.request('GET', '/'), /ECONNREFUSED/);
    nowhere.close();
  });
});
