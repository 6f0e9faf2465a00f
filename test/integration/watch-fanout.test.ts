/**
 * Seam 4: watch events are serialized once and the bytes shared by every watcher; a
 * watcher that stops reading is closed instead of buffering without bound; BOOKMARKs carry the
 * store's progress, not the watcher's last event.
 */
import assert from 'node:assert/strict';
import { connect, constants } from 'node:http2';
import type { ClientHttp2Session } from 'node:http2';
import { after, before, test } from 'node:test';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let server: TestServer;
let session: ClientHttp2Session;

before(async () => {
  server = await startTestServer({ controllers: false, watchBookmarkIntervalMs: 150 });
  session = adminSession(server);
});
after(async () => {
  session.close();
  await server.stop();
});

interface Line {
  readonly type: string;
  readonly object: {
    metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> };
  };
}

/** A watch over the shared session; `ready` rejects unless the server answers 200. */
function watch(path: string): { lines: Line[]; ready: Promise<void>; close: () => void } {
  const w = collectWatch<Line>(session, path);
  const ready = w.status.then((code) => {
    if (code !== 200) throw new Error(`status ${code}`);
  });
  return { lines: w.lines, ready, close: () => w.stream.close() };
}

const cm = (name: string): unknown => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { k: name },
});

test('100 watchers: each event is encoded once per format and version', async () => {
  await server.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fan' } },
  });
  const current = (await server.request('GET', '/api/v1/namespaces/fan/configmaps')).json<{
    metadata: { resourceVersion: string };
  }>();
  const rv = current.metadata.resourceVersion;
  const watchers = Array.from({ length: 100 }, () =>
    watch(`/api/v1/namespaces/fan/configmaps?watch=1&resourceVersion=${rv}`),
  );
  await Promise.all(watchers.map((w) => w.ready));
  const before = server.api.watchEncodings;
  for (let i = 0; i < 5; i++)
    assert.equal(
      (await server.request('POST', '/api/v1/namespaces/fan/configmaps', { body: cm(`c${i}`) })).status,
      201,
    );
  await server.request('DELETE', '/api/v1/namespaces/fan/configmaps/c0');
  await until(() => watchers.every((w) => w.lines.length >= 6));
  for (const w of watchers) {
    assert.deepEqual(
      w.lines.map((l) => `${l.type} ${l.object.metadata.name ?? ''}`),
      ['ADDED c0', 'ADDED c1', 'ADDED c2', 'ADDED c3', 'ADDED c4', 'DELETED c0'],
    );
  }
  assert.equal(server.api.watchEncodings - before, 6, 'six events, each serialized once for 100 watchers');
  for (const w of watchers) w.close();
});

test('a BOOKMARK carries the store progress, past the watcher’s own last event', async () => {
  await server.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quiet' } },
  });
  const w = watch('/api/v1/namespaces/quiet/configmaps?watch=1&allowWatchBookmarks=true');
  await w.ready;
  // Writes elsewhere move the store on; this watch sees none of them.
  let last = '';
  for (let i = 0; i < 3; i++) {
    const r = await server.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm(`elsewhere-${i}`),
    });
    last = r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
  }
  await until(() =>
    w.lines.some((l) => l.type === 'BOOKMARK' && Number(l.object.metadata.resourceVersion) >= Number(last)),
  );
  assert.ok(w.lines.every((l) => l.type === 'BOOKMARK'));
  w.close();
});

test('a watcher that stops reading is closed once it is too far behind; others keep going', async () => {
  const small = await startTestServer({ controllers: false, watchMaxQueuedEvents: 20 });
  const h2 = connect(small.url, { ca: small.pki.caCert, cert: small.pki.adminCert, key: small.pki.adminKey });
  try {
    const path = '/api/v1/namespaces/default/configmaps?watch=1';
    const stalled = h2.request({ ':path': path });
    stalled.pause(); // never reads: HTTP/2 flow control stops the server's writes
    let stalledClosed = false;
    stalled.on('close', () => (stalledClosed = true));
    const healthy = h2.request({ ':path': path });
    let healthyEvents = 0;
    healthy.setEncoding('utf8');
    healthy.on('data', (c: string) => (healthyEvents += c.split('\n').length - 1));
    await new Promise((r) => setTimeout(r, 100));
    const big = 'x'.repeat(4096);
    const total = 120; // ~500 KiB: far past the stream window, the write buffer and 20 queued events
    for (let i = 0; i < total; i++) {
      const r = await small.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data: { big } },
      });
      assert.equal(r.status, 201);
    }
    await until(() => healthyEvents >= total);
    // The server cut the stalled watch off (RST_STREAM CANCEL) without waiting for it to read.
    await until(() => stalledClosed);
    assert.equal(stalled.rstCode, constants.NGHTTP2_CANCEL);
    assert.equal(healthyEvents, total);
  } finally {
    h2.close();
    await small.stop();
  }
});
