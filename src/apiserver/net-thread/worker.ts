/**
 * The network thread of `nanokube serve --net-thread`: the TLS listener with its connection bounds
 * (front-door.ts: handshakes, HTTP/2 framing and HTTP/1.1 parsing, the per-session stream guard)
 * runs here, on a core of its own, and every request goes to the API server on the main thread as
 * messages (protocol.ts). TLS handshakes then never wait behind the request chain.
 *
 * This module is the thread's entry point only: built on its own as dist/net-thread.js, so the
 * thread loads the front door and not the whole server.
 */
import { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { constants as h2constants } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { connectionCertificate } from '../filters/tls-peer.js';
import { createFrontDoor } from '../front-door.js';
import { maxRequestBodyBytes } from '../serving-options.js';
import { isNetDown, isNetThreadData } from './protocol.js';
import type { ForwardedHead, NetDown, NetThreadData, NetUp } from './protocol.js';

/** One request being answered by the main thread. */
interface Exchange {
  readonly req: IncomingMessage | Http2ServerRequest;
  readonly res: ServerResponse | Http2ServerResponse | undefined;
  /** An upgraded HTTP/1.1 connection (exec, attach, port-forward): bytes both ways. */
  readonly socket: Duplex | undefined;
  /** The main thread ended or dropped the answer. */
  finished: boolean;
}

/** Body bytes forwarded at most: the main thread refuses a body past its limit (413) at once. */
const forwardedBodyBytes = maxRequestBodyBytes + 1;

function serveNetThread(d: NetThreadData, port: MessagePort): void {
  const exchanges = new Map<number, Exchange>();
  let nextId = 1;
  const post = (m: NetUp, transfer?: readonly ArrayBuffer[]): void =>
    port.postMessage(m, transfer as ArrayBuffer[] | undefined);

  const headOf = (
    id: number,
    req: IncomingMessage | Http2ServerRequest,
    ended: boolean,
    upgradeHead?: Buffer,
  ): ForwardedHead => {
    const socket = req instanceof Http2ServerRequest ? req.stream.session?.socket : req.socket;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
    return {
      t: 'req',
      id,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      httpVersion: req.httpVersion,
      headers,
      rawHeaders: req.rawHeaders,
      remoteAddress: socket?.remoteAddress,
      certificate: socket instanceof TLSSocket ? connectionCertificate(socket) : null,
      ended,
      ...(upgradeHead !== undefined ? { upgradeHead: new Uint8Array(upgradeHead) } : {}),
    };
  };

  const forward = (
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
  ): Promise<void> =>
    new Promise<void>((resolve) => {
      const id = nextId++;
      const ended =
        req instanceof Http2ServerRequest
          ? req.stream.endAfterHeaders
          : req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
      const x: Exchange = { req, res, socket: undefined, finished: false };
      exchanges.set(id, x);
      post(headOf(id, req, ended));
      if (!ended) {
        let forwarded = 0;
        req.on('data', (chunk: Buffer) => {
          if (x.finished || forwarded >= forwardedBodyBytes) return;
          const part = chunk.subarray(0, forwardedBodyBytes - forwarded);
          forwarded += part.byteLength;
          const copy = new Uint8Array(part);
          post({ t: 'body', id, chunk: copy }, [copy.buffer]);
        });
        req.once('end', () => {
          if (!x.finished) post({ t: 'body-end', id });
        });
      }
      res.once('close', () => {
        exchanges.delete(id);
        if (!x.finished) post({ t: 'gone', id });
        resolve();
      });
    });

  const tunnel = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const id = nextId++;
    const x: Exchange = { req, res: undefined, socket, finished: false };
    exchanges.set(id, x);
    post(headOf(id, req, true, head));
    socket.on('data', (chunk: Buffer) => {
      const copy = new Uint8Array(chunk);
      post({ t: 'sock', id, chunk: copy }, [copy.buffer]);
    });
    socket.once('end', () => post({ t: 'sock', id }));
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      exchanges.delete(id);
      post({ t: 'gone', id });
    });
  };

  const answer = (m: Extract<NetDown, { t: 'res' }>, x: Exchange): void => {
    const res = x.res;
    if (res === undefined) return;
    if (m.status !== undefined && !res.headersSent) {
      try {
        res.writeHead(m.status, m.headers);
        // A head sent alone (a watch before its first event): HTTP/1.1 holds it until the first
        // write unless flushed (HTTP/2's writeHead sends it at once).
        if (m.chunk === undefined && m.end !== true && !(res instanceof Http2ServerResponse))
          res.flushHeaders();
      } catch {
        // The stream closed under it (the client reset it): 'close' reports it.
        return;
      }
    }
    const chunk = m.chunk;
    if (chunk !== undefined) {
      // Both kinds of response take (chunk, callback); their types' overloads do not unite.
      const writer = res as { write(chunk: Uint8Array, done: () => void): boolean };
      writer.write(chunk, () => post({ t: 'ack', id: m.id, bytes: chunk.byteLength }));
    }
    if (m.end === true) {
      x.finished = true;
      res.end();
    }
  };

  const reset = (x: Exchange): void => {
    x.finished = true;
    if (x.socket !== undefined) x.socket.destroy();
    else if (x.req instanceof Http2ServerRequest) x.req.stream.close(h2constants.NGHTTP2_CANCEL);
    else x.req.socket.destroy();
  };

  const server = createFrontDoor({
    key: d.key,
    cert: d.cert,
    ca: d.ca,
    ...(d.serving !== undefined ? { serving: d.serving } : {}),
    onRequest: forward,
    onUpgrade: tunnel,
  });

  port.on('message', (m: unknown) => {
    if (!isNetDown(m)) return;
    if (m.t === 'close') {
      server.close(() => post({ t: 'closed' }));
      return;
    }
    const x = exchanges.get(m.id);
    if (x === undefined) return;
    switch (m.t) {
      case 'res':
        answer(m, x);
        return;
      case 'reset':
        reset(x);
        return;
      case 'sock': {
        const socket = x.socket;
        if (socket === undefined) return;
        const chunk = m.chunk;
        if (chunk !== undefined)
          socket.write(chunk, () => post({ t: 'ack', id: m.id, bytes: chunk.byteLength }));
        if (m.destroy === true) socket.destroy();
        else if (m.end === true) socket.end();
      }
    }
  });

  const onListenError = (
    err: Error & { code?: string; syscall?: string; address?: string; port?: number },
  ): void =>
    post({
      t: 'listen-error',
      message: err.message,
      ...(err.code !== undefined ? { code: err.code } : {}),
      ...(err.syscall !== undefined ? { syscall: err.syscall } : {}),
      ...(err.address !== undefined ? { address: err.address } : {}),
      ...(err.port !== undefined ? { port: err.port } : {}),
    });
  server.once('error', onListenError);
  server.listen(d.port, d.host, () => {
    server.off('error', onListenError);
    post({ t: 'listening', port: (server.address() as AddressInfo).port });
  });
}

if (!isMainThread && isNetThreadData(workerData) && parentPort !== null)
  serveNetThread(workerData, parentPort);
