/**
 * Integration: `serve --net-thread`, TLS and HTTP on a thread of their own (#28, use every core).
 * The request chain still runs on the main thread; what the network thread holds must not change
 * what a client sees: identities from client certificates, bodies both ways, flow control, a
 * cancelled watch, a taken port. The first test shows the point of it: a handshake completes while
 * the main thread is blocked, which the same server without the thread cannot do.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as h1request } from 'node:https';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { listenErrorMessage } from '../../src/cmd/listen-error.js';
import { clientCert, newCa } from '../support/certs.js';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/**
 * A client in another process that opens one TLS connection when told to ('go' on its stdin) and
 * prints the wall-clock time its handshake completed.
 */
const handshakeClient = `
const tls = require('node:tls');
const [port, ca, cert, key] = JSON.parse(process.argv[1]);
process.stdin.once('data', () => {
  const s = tls.connect({ host: '127.0.0.1', port, ca, cert, key, ALPNProtocols: ['h2'] }, () => {
    process.stdout.write(JSON.stringify({ at: Date.now() }) + '\\n');
    s.destroy();
  });
  s.on('error', (e) => { process.stdout.write(JSON.stringify({ error: e.message }) + '\\n'); });
});
process.stdout.write('ready\\n');
`;

/** Blocks this (the main) thread for `ms`; returns the wall-clock time it was released. */
function blockMainThread(ms: number): number {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return Date.now();
}

/** When a handshake with `s` completed, started as this thread is blocked for 1.5 s; and when it was released. */
async function handshakeWhileBlocked(s: TestServer): Promise<{ handshake: number; released: number }> {
  const child = spawn(
    process.execPath,
    ['-e', handshakeClient, JSON.stringify([s.port, s.pki.caCert, s.pki.adminCert, s.pki.adminKey])],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const it = lines[Symbol.asyncIterator]();
  assert.equal((await it.next()).value, 'ready');
  child.stdin.write('go\n');
  const released = blockMainThread(1500);
  const line = (await it.next()).value as string;
  child.kill();
  const r = JSON.parse(line) as { at?: number; error?: string };
  assert.equal(r.error, undefined);
  return { handshake: r.at ?? NaN, released };
}

describe('#28 the network thread: TLS and HTTP off the main thread', () => {
  let s: TestServer;
  let plain: TestServer;

  before(async () => {
    s = await startTestServer({ controllers: false, netThread: true });
    plain = await startTestServer({ controllers: false, netThread: false });
  });
  after(async () => {
    await s.stop();
    await plain.stop();
  });

  it('completes a TLS handshake while the main thread is blocked; without it the handshake waits', async () => {
    const threaded = await handshakeWhileBlocked(s);
    assert.ok(
      threaded.handshake < threaded.released,
      `handshake at ${threaded.handshake}, main thread released at ${threaded.released}`,
    );
    const single = await handshakeWhileBlocked(plain);
    assert.ok(
      single.handshake >= single.released,
      `handshake at ${single.handshake}, main thread released at ${single.released}`,
    );
  });

  it('authenticates client certificates read on the network thread; refuses one it could not verify', async () => {
    const review = async (o: { cert: string; key: string }): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1beta1',
          kind: 'SelfSubjectReview',
        });
        const req = h1request(
          {
            host: '127.0.0.1',
            port: s.port,
            method: 'POST',
            path: '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews',
            ca: s.pki.caCert,
            ...o,
            headers: {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const ca = {
      cert: s.pki.caCert,
      key: readFileSync(join(s.dataDir, 'pki', 'ca.key'), 'utf8'),
    };
    const dev = await clientCert(ca, 'CN=jane, O=dev, O=qa');
    const ok = await review(dev);
    assert.equal(ok.status, 201, ok.body);
    const user = (JSON.parse(ok.body) as { status: { userInfo: unknown } }).status.userInfo;
    assert.deepEqual(user, { username: 'jane', groups: ['dev', 'qa', 'system:authenticated'] });
    // Signed by a CA the server does not trust: the handshake takes it, authentication refuses it.
    const other = await clientCert(await newCa(), 'CN=mallory, O=system:masters');
    const refused = await review(other);
    assert.equal(refused.status, 401, refused.body);
    assert.match(refused.body, /"reason":"Unauthorized"/);
  });

  it('carries request bodies in and answers larger than its window out, over HTTP/1.1 and HTTP/2', async () => {
    const data = { blob: 'x'.repeat(900 * 1024) };
    for (let i = 0; i < 4; i++) {
      const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data },
      });
      assert.equal(r.status, 201, r.text);
    }
    // About 3.6 MB of list: more than the 1 MiB the main thread sends ahead of acknowledgements.
    const h1 = await s.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(h1.status, 200);
    const items = (h1.json() as { items: { data?: { blob?: string } }[] }).items;
    assert.equal(items.filter((c) => c.data?.blob === data.blob).length, 4);
    const session = adminSession(s);
    try {
      const stream = session.request({
        ':path': '/api/v1/namespaces/default/configmaps',
        accept: 'application/json',
      });
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      const [headers] = (await once(stream, 'response')) as [Record<string, string>];
      assert.equal(headers[':status'], 200);
      await once(stream, 'end');
      const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: unknown[] };
      assert.equal(list.items.length, items.length);
    } finally {
      session.close();
    }
  });

  it('ends the server side of a watch the client cancels', async () => {
    const watchers = async (): Promise<number> => {
      const r = await s.request('GET', '/metrics', { accept: 'text/plain' });
      const m =
        /^apiserver_longrunning_requests\{[^}]*resource="configmaps"[^}]*verb="WATCH"[^}]*\} (\d+)/m.exec(
          r.text,
        );
      return Number(m?.[1] ?? 0);
    };
    const session = adminSession(s);
    try {
      const made = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } },
      });
      assert.equal(made.status, 201, made.text);
      // One object's initial event (the earlier test's 3.6 MB would still be in flight).
      const w = collectWatch(
        session,
        '/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dwatched',
      );
      assert.equal(await w.status, 200);
      await until(() => w.lines.length >= 1);
      assert.equal(await watchers(), 1);
      w.stream.close();
      const deadline = Date.now() + 10_000;
      while ((await watchers()) !== 0) {
        assert.ok(Date.now() < deadline, 'the watch was still served 10 s after the client cancelled it');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      session.close();
    }
  });

  it('sends an HTTP/1.1 watch its head before any event (a head alone is flushed)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = h1request(
        {
          host: '127.0.0.1',
          port: s.port,
          path: '/api/v1/namespaces/default/configmaps?watch=1&labelSelector=nothing%3Dmatches',
          ca: s.pki.caCert,
          cert: s.pki.adminCert,
          key: s.pki.adminKey,
          agent: false,
        },
        (res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ECONNRESET') reject(e);
      });
      req.end();
    });
    assert.equal(status, 200);
  });

  it('reports a taken port as listen(2) does, so that serve prints its one line', async () => {
    const err = await startTestServer({ controllers: false, netThread: true, securePort: s.port }).then(
      (extra) => extra.stop().then(() => undefined),
      (e: unknown) => e,
    );
    assert.equal(
      listenErrorMessage(err),
      `cannot listen on 127.0.0.1:${s.port}: another process already uses it; stop it, or pick another port with --secure-port (0 picks a free one)`,
    );
  });
});
