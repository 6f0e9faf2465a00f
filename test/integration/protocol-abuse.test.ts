/**
 * Integration: clients that abuse the protocol, each bounded as kube-apiserver v1.27 bounds it, and
 * a well-behaved client served during and after each abuse. The server's timeouts are shortened
 * through ServerOptions.serving (upstream's defaults are 32 s, 90 s and 10 s); the stream limit is
 * 10 instead of 100 so that a handful of streams exceeds it.
 */
import assert from 'node:assert/strict';
import { connect as h2connect } from 'node:http2';
import type { ClientHttp2Session } from 'node:http2';
import { connect as tcpConnect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { constants } from 'node:http2';
import { createFrontDoor } from '../../src/apiserver/front-door.js';
import { adminSession } from '../support/h2-watch.js';
import { RawH2, frame, frameType, flag, requestBlock, rstPayload } from '../support/raw-h2.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const maxStreams = 10;
const maxQueuedEvents = 50;

describe('protocol abuse is bounded, and other clients are still served', () => {
  let s: TestServer;
  const creds = (): { port: number; ca: string; cert: string; key: string } => ({
    port: s.port,
    ca: s.pki.caCert,
    cert: s.pki.adminCert,
    key: s.pki.adminKey,
  });

  before(async () => {
    s = await startTestServer({
      controllers: false,
      serving: {
        http2MaxStreamsPerConnection: maxStreams,
        headerTimeoutMs: 2000,
        idleTimeoutMs: 3000,
        prefaceTimeoutMs: 2000,
      },
      watchMaxQueuedEvents: maxQueuedEvents,
    });
  });
  after(() => s.stop());

  /** A GET over HTTP/1.1 and one over a new HTTP/2 session both answer 200. */
  async function servedNormally(): Promise<void> {
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200, r.text);
    const session = adminSession(s);
    try {
      assert.equal(await h2Status(session, '/api/v1/namespaces/default/configmaps'), 200);
    } finally {
      session.close();
    }
  }

  function h2Status(session: ClientHttp2Session, path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = session.request({ ':path': path });
      req.on('response', (h) => resolve(Number(h[':status'])));
      req.on('error', reject);
      req.resume();
      req.end();
    });
  }

  /** A TLS connection speaking HTTP/1.1, with the admin's certificate. */
  async function http1Socket(): Promise<TLSSocket> {
    const socket = tlsConnect({ ...creds(), host: '127.0.0.1', ALPNProtocols: ['http/1.1'] });
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', () => resolve());
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    return socket;
  }

  /** Everything the server sends on `socket` until it closes it. */
  function readUntilClosed(socket: TLSSocket): Promise<string> {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    return new Promise((resolve) => socket.once('close', () => resolve(text)));
  }

  it('HTTP/2 rapid reset (CVE-2023-44487): the abusive session gets GOAWAY and is closed', async () => {
    const c = await RawH2.open(creds());
    const block = requestBlock('/api/v1/namespaces/default/configmaps');
    let id = 1;
    const abuse = (async () => {
      for (let batch = 0; batch < 100; batch++) {
        const frames: Buffer[] = [];
        for (let i = 0; i < 200; i++, id += 2) {
          frames.push(
            frame(frameType.headers, flag.endHeaders | flag.endStream, id, block),
            frame(frameType.rstStream, 0, id, rstPayload(constants.NGHTTP2_CANCEL)),
          );
        }
        if (!c.write(Buffer.concat(frames))) return;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all([abuse, servedNormally()]);
    await c.closed;
    const first = c.goaways[0];
    assert.ok(
      first !== undefined,
      `the server sent GOAWAY (${c.responded.size} answered, ${c.resets.size} reset)`,
    );
    // Ours (Go's: more handlers waiting than 4 x the stream limit) or nghttp2's reset rate limit.
    assert.ok(
      first.code === constants.NGHTTP2_ENHANCE_YOUR_CALM || first.code === constants.NGHTTP2_INTERNAL_ERROR,
      `GOAWAY code ${first.code}`,
    );
    // Of the 20,000 streams sent, the server took at most nghttp2's burst of 1,000 resets.
    assert.ok(first.lastStreamId < 2 * 1100, `last stream ${first.lastStreamId} of ${id - 2}`);
    await servedNormally();
  });

  it('more streams than SETTINGS_MAX_CONCURRENT_STREAMS: the extra ones are refused', async () => {
    const c = await RawH2.open(creds());
    try {
      const watch = requestBlock('/api/v1/namespaces/default/configmaps?watch=1');
      for (let i = 0; i < maxStreams + 3; i++) {
        c.write(frame(frameType.headers, flag.endHeaders | flag.endStream, 1 + 2 * i, watch));
      }
      await until(() => c.responded.size + c.resets.size >= maxStreams + 3);
      assert.equal(c.responded.size, maxStreams);
      for (let i = maxStreams; i < maxStreams + 3; i++) {
        const code = c.resets.get(1 + 2 * i);
        // Go and nghttp2 alike: REFUSED_STREAM, or PROTOCOL_ERROR once SETTINGS were acknowledged.
        assert.ok(
          code === constants.NGHTTP2_REFUSED_STREAM || code === constants.NGHTTP2_PROTOCOL_ERROR,
          `stream ${1 + 2 * i}: ${String(code)}`,
        );
      }
      await servedNormally();
      // Ending one watch makes room for another on the same connection.
      c.write(frame(frameType.rstStream, 0, 1, rstPayload(constants.NGHTTP2_CANCEL)));
      const next = 1 + 2 * (maxStreams + 3);
      await new Promise((r) => setTimeout(r, 100));
      c.write(frame(frameType.headers, flag.endHeaders | flag.endStream, next, watch));
      await until(() => c.responded.has(next) || c.resets.has(next));
      assert.ok(c.responded.has(next));
    } finally {
      c.close();
    }
  });

  it('HTTP/1.1 headers sent byte by byte: the connection is cut off at the header timeout', async () => {
    const socket = await http1Socket();
    const answer = readUntilClosed(socket);
    const line = 'GET /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nX-Slow: ';
    let i = 0;
    const drip = setInterval(() => socket.write(line[i++ % line.length] ?? 'a'), 100);
    try {
      await servedNormally();
      const text = await answer;
      // Closed without an answer, as Go does (node's own handler would answer 408).
      assert.equal(text, '');
    } finally {
      clearInterval(drip);
    }
    await servedNormally();
  });

  it('a connection that never completes the TLS handshake is closed', async () => {
    const socket = tcpConnect({ port: s.port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await servedNormally();
  });

  it('an idle HTTP/1.1 keep-alive connection is closed at the idle timeout', async () => {
    const socket = await http1Socket();
    const answer = readUntilClosed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await answer;
    assert.match(text, /^HTTP\/1\.1 200 /);
    await servedNormally();
  });

  it('HTTP/2 without a preface, and a header block that never ends: the connection is closed', async () => {
    const silent = await RawH2.open({ ...creds(), preface: false });
    await silent.closed;
    const c = await RawH2.open(creds());
    await c.ready;
    // HEADERS without END_HEADERS, then a CONTINUATION byte every 300 ms (nghttp2 ends a session
    // sending more than 8 CONTINUATION frames in one block, CVE-2024-28182; these stay below).
    const block = requestBlock('/api/v1/namespaces/default/configmaps', { 'x-slow': 'a'.repeat(100) });
    c.write(frame(frameType.headers, flag.endStream, 1, block.subarray(0, 20)));
    let at = 20;
    const drip = setInterval(() => {
      if (at < 27) c.write(frame(frameType.continuation, 0, 1, block.subarray(at, ++at)));
    }, 300);
    try {
      await servedNormally();
      await c.closed;
    } finally {
      clearInterval(drip);
    }
    assert.equal(c.goaways[0]?.code, constants.NGHTTP2_NO_ERROR);
    assert.equal(c.responded.size, 0);
    await servedNormally();
  });

  it('request headers over 1 MiB: 431 on HTTP/1.1, the stream reset on HTTP/2', async () => {
    const near = await s.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { 'x-pad': 'a'.repeat(900 * 1024) },
    });
    assert.equal(near.status, 200);
    const socket = await http1Socket();
    const answer = readUntilClosed(socket);
    socket.write(`GET /version HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(1024 * 1024 + 8192)}\r\n\r\n`);
    assert.match(await answer, /^HTTP\/1\.1 431 /);
    const near2 = await RawH2.open(creds());
    await near2.ready;
    try {
      // In frames of the 256 KiB the server allows (upstream's MaxReadFrameSize), as headers of
      // 50 KiB (nghttp2's HPACK decoder takes no field over 64 KiB: COMPRESSION_ERROR).
      near2.sendHeaders(1, requestBlock('/version', pads(18)), true, 256 * 1024);
      await until(() => near2.ended.has(1) || near2.resets.has(1) || near2.goaways.length > 0);
      assert.ok(
        near2.responded.has(1) && !near2.resets.has(1),
        `a 900 KiB header is served over HTTP/2 (${JSON.stringify([...near2.resets, ...near2.goaways])})`,
      );
    } finally {
      near2.close();
    }
    const c = await RawH2.open(creds());
    await c.ready;
    try {
      c.sendHeaders(1, requestBlock('/version', pads(21)), true, 256 * 1024);
      await until(() => c.resets.has(1) || c.responded.has(1) || c.goaways.length > 0);
      assert.equal(c.resets.get(1), constants.NGHTTP2_ENHANCE_YOUR_CALM);
      assert.ok(!c.responded.has(1), 'no answer to the oversized request');
    } finally {
      c.close();
    }
    await servedNormally();
  });

  it('bodies over 3 MiB: 413 with Content-Length, chunked, and on HTTP/2 without a length', async () => {
    const big = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big' },
      data: { a: 'x'.repeat(3 * 1024 * 1024) },
    });
    // Chunked over HTTP/1.1: no Content-Length to refuse up front.
    const socket = await http1Socket();
    const answer = readUntilClosed(socket);
    socket.write(
      'POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    for (let at = 0; at < big.length; at += 64 * 1024) {
      const part = big.slice(at, at + 64 * 1024);
      if (!socket.writable) break;
      socket.write(`${part.length.toString(16)}\r\n${part}\r\n`);
    }
    const text = await answer;
    assert.match(text, /^HTTP\/1\.1 413 /);
    assert.match(text, /"reason":"RequestEntityTooLarge"/);
    // HTTP/2, no content-length.
    const session = adminSession(s);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = session.request({
          ':method': 'POST',
          ':path': '/api/v1/namespaces/default/configmaps',
          'content-type': 'application/json',
        });
        req.on('response', (h) => resolve(Number(h[':status'])));
        req.on('error', reject);
        req.resume();
        req.end(big);
      });
      assert.equal(status, 413);
    } finally {
      session.close();
    }
    // A declared 100 MiB sent slowly: refused at once, the connection closed rather than drained.
    const slow = await http1Socket();
    const slowAnswer = readUntilClosed(slow);
    slow.write(
      `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{`,
    );
    const drip = setInterval(() => slow.writable && slow.write(' '), 100);
    try {
      assert.match(await slowAnswer, /^HTTP\/1\.1 413 /);
    } finally {
      clearInterval(drip);
    }
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/big')).status, 404);
    await servedNormally();
  });

  it('a body that trickles: 504 at the request deadline, then the stream or connection ends', async () => {
    const path = '/api/v1/namespaces/default/configmaps?timeout=1s';
    // HTTP/1.1 with a large declared body: answered and closed.
    const socket = await http1Socket();
    const answer = readUntilClosed(socket);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"a":`,
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    // HTTP/2: answered and the stream ended while the client still sends.
    const c = await RawH2.open(creds());
    const h2drip = setInterval(() => c.write(frame(frameType.data, 0, 1, Buffer.from(' '))), 100);
    try {
      c.write(
        frame(
          frameType.headers,
          flag.endHeaders,
          1,
          requestBlock(path, { 'content-type': 'application/json' }, 'POST'),
        ),
      );
      await servedNormally();
      assert.match(await answer, /^HTTP\/1\.1 504 /);
      await until(() => c.ended.has(1) || c.resets.has(1));
      assert.ok(c.responded.has(1));
    } finally {
      clearInterval(drip);
      clearInterval(h2drip);
      c.close();
    }
    await servedNormally();
  });

  it('a watcher that never reads is cut off once too far behind; the others are not', async () => {
    const watchers = async (): Promise<number> => {
      const r = await s.request('GET', '/metrics');
      const m = /^apiserver_registered_watchers\{group="",kind="ConfigMap",version="v1"\} (\d+)$/m.exec(
        r.text,
      );
      return Number(m?.[1] ?? 0);
    };
    const before = await watchers();
    // HTTP/2 that never sends WINDOW_UPDATE: the server can send 64 KiB, then must wait.
    const c = await RawH2.open(creds());
    c.write(
      frame(
        frameType.headers,
        flag.endHeaders | flag.endStream,
        1,
        requestBlock('/api/v1/namespaces/default/configmaps?watch=1'),
      ),
    );
    // HTTP/1.1 that stops reading its socket.
    const socket = await http1Socket();
    socket.write('GET /api/v1/namespaces/default/configmaps?watch=1 HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => c.responded.has(1));
    socket.pause();
    // A reader that keeps up.
    const session = adminSession(s);
    const good = session.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1' });
    let goodEvents = 0;
    good.setEncoding('utf8');
    good.on('data', (d: string) => (goodEvents += d.split('\n').length - 1));
    try {
      await until(async () => (await watchers()) === before + 3);
      // Large events, so that the socket buffers between server and client fill soon.
      const value = 'v'.repeat(64 * 1024);
      let created = 0;
      // The paused client never sees its connection end (the FIN waits behind what it did not
      // read): the server's count of watchers tells when both were cut off.
      const cutOff = async (): Promise<boolean> => c.resets.has(1) && (await watchers()) === before + 1;
      while (!(await cutOff()) && created < 20 * maxQueuedEvents) {
        const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `w${created++}` }, data: { value } },
        });
        assert.equal(r.status, 201);
      }
      assert.ok(await cutOff(), `both watches that do not read were cut off (${created} events)`);
      await until(() => goodEvents >= created);
      assert.ok(!good.closed, 'the reading watch goes on');
      await servedNormally();
    } finally {
      good.close();
      session.close();
      c.close();
      socket.destroy();
    }
  });
});

describe('the front door runs at most the stream limit of handlers per HTTP/2 session', () => {
  it('streams reset while their handlers run: GOAWAY ENHANCE_YOUR_CALM past 4 x the limit waiting', async () => {
    const s = await startTestServer({ controllers: false });
    let running = 0;
    let maxRunning = 0;
    let started = 0;
    // Handlers that take a while whatever the client does (Go's goroutines of reset streams).
    const door = createFrontDoor({
      key: s.pki.servingKey,
      cert: s.pki.servingCert,
      ca: s.pki.caCert,
      serving: { http2MaxStreamsPerConnection: maxStreams },
      onRequest: async (_req, res) => {
        started++;
        maxRunning = Math.max(maxRunning, ++running);
        await new Promise((r) => setTimeout(r, 300));
        running--;
        if (!res.writableEnded) res.end('ok');
      },
      onUpgrade: (_req, socket) => socket.destroy(),
    });
    await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
    const port = (door.address() as AddressInfo).port;
    try {
      const c = await RawH2.open({ port, ca: s.pki.caCert });
      await c.ready;
      const block = requestBlock('/slow');
      const frames: Buffer[] = [];
      for (let i = 0, id = 1; i < 6 * maxStreams; i++, id += 2) {
        frames.push(
          frame(frameType.headers, flag.endHeaders | flag.endStream, id, block),
          frame(frameType.rstStream, 0, id, rstPayload(constants.NGHTTP2_CANCEL)),
        );
      }
      c.write(Buffer.concat(frames));
      // A well-behaved session meanwhile.
      const good = h2connect(`https://127.0.0.1:${port}`, { ca: s.pki.caCert });
      const status = await new Promise<number>((resolve, reject) => {
        const req = good.request({ ':path': '/good' });
        req.on('response', (h) => resolve(Number(h[':status'])));
        req.on('error', reject);
        req.resume();
      });
      good.close();
      assert.equal(status, 200);
      await c.closed;
      assert.equal(c.goaways[0]?.code, constants.NGHTTP2_ENHANCE_YOUR_CALM);
      assert.ok(maxRunning <= maxStreams + 1, `${maxRunning} handlers ran at once`);
      assert.ok(started <= maxStreams + 1, `${started} handlers started`);
    } finally {
      await new Promise((r) => door.close(r));
      await s.stop();
    }
  });
});

/** `n` headers of 50 KiB each. */
function pads(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-pad-${i}`, 'a'.repeat(50 * 1024)]));
}

/** Waits until `cond` holds, polling. */
async function until(cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
