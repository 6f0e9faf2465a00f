/**
 * The TLS listener with kube-apiserver's connection bounds (see serving-options.ts): HTTP/2 with
 * HTTP/1.1 fallback, client certificates asked for, the TLS version and suites of the flags, the
 * header and idle timeouts of both protocols, the header size limit, and one Http2SessionGuard
 * per HTTP/2 session in front of the request handler.
 */
import { Http2ServerRequest, createSecureServer } from 'node:http2';
import type { Http2SecureServer, Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Http2SessionGuard } from './h2-session-guard.js';
import { onHttp1ClientError } from './http1-client-error.js';
import {
  headerListOverheadBytes,
  maxReadFrameBytes,
  resolveServing,
  unreadInputDrainMs,
} from './serving-options.js';
import type { ServingOptions } from './serving-options.js';
import { tlsServingOptions } from './tls-options.js';

export interface FrontDoorOptions {
  readonly key: string;
  readonly cert: string;
  /** CA bundle client certificates are verified against. */
  readonly ca: string;
  readonly serving?: ServingOptions;
  /** Serves one request; resolves when it is done with (an HTTP/2 session counts it until then). */
  readonly onRequest: (
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
  ) => Promise<void>;
  /** An HTTP/1.1 request asking to switch protocols, with its socket. */
  readonly onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

/** The http.Server fields node:http2 reads for its HTTP/1.1 fallback (not in its types). */
interface Http1Fields {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
  keepAliveTimeout: number;
  maxHeaderSize: number;
}

export function createFrontDoor(o: FrontDoorOptions): Http2SecureServer {
  const limits = resolveServing(o.serving);
  const tls = o.serving?.tls ?? tlsServingOptions({});
  const server = createSecureServer({
    key: o.key,
    cert: o.cert,
    ca: o.ca,
    allowHTTP1: true,
    // Certificates are asked for and verified against `ca`; the chain's authentication stage
    // refuses one that did not verify (401) and treats a request without one as anonymous.
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: tls.minVersion,
    ciphers: tls.ciphers,
    // Go's TLS handshake deadline is the ReadHeaderTimeout.
    handshakeTimeout: limits.headerTimeoutMs,
    settings: {
      maxConcurrentStreams: limits.maxStreams,
      maxHeaderListSize: limits.maxHeaderBytes + headerListOverheadBytes,
      // Upstream's MaxReadFrameSize. nghttp2 accepts at most 8 CONTINUATION frames after a
      // HEADERS frame: with 16 KiB frames a header block could not reach the 1 MiB Go allows.
      maxFrameSize: maxReadFrameBytes,
    },
  });
  const http1: Http1Fields = {
    headersTimeout: limits.headerTimeoutMs,
    // node's own bound on receiving a whole HTTP/1.1 request (Go has none; the request deadline
    // ends a slow body first).
    requestTimeout: Math.max(300_000, limits.headerTimeoutMs),
    // How often node checks those two: a quarter of the header timeout, so it is kept closely.
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(limits.headerTimeoutMs / 4))),
    keepAliveTimeout: limits.idleTimeoutMs,
    // Go's net/http reads MaxHeaderBytes plus 4 KiB of slack before it gives up on a head.
    maxHeaderSize: limits.maxHeaderBytes + 4096,
  };
  Object.assign(server, http1);
  const guards = new WeakMap<ServerHttp2Session, Http2SessionGuard>();
  server.on('session', (session: ServerHttp2Session) =>
    guards.set(
      session,
      new Http2SessionGuard(session, {
        maxStreams: limits.maxStreams,
        idleTimeoutMs: limits.idleTimeoutMs,
        prefaceTimeoutMs: limits.prefaceTimeoutMs,
      }),
    ),
  );
  server.on(
    'request',
    (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
      if (!(req instanceof Http2ServerRequest)) {
        closeAfterUnreadBody(req, res);
        void o.onRequest(req, res);
        return;
      }
      const stream = req.stream;
      const guard =
        stream.session === undefined ? undefined : guards.get(stream.session as ServerHttp2Session);
      if (guard === undefined) {
        void o.onRequest(req, res);
        return;
      }
      guard.admit(
        () => o.onRequest(req, res),
        () => stream.closed || stream.destroyed,
      );
    },
  );
  server.on('upgrade', o.onUpgrade);
  // A refused HTTP/1.1 request is answered as Go answers it, without losing the answer to a reset.
  server.on('clientError', onHttp1ClientError);
  return server;
}

/**
 * An HTTP/1.1 answer given before the body was read: node reads the rest and drops it to reach the
 * next request, for as long as the client sends. A body still incomplete `unreadInputDrainMs`
 * after the answer (a trickle, a huge declared length) has its connection closed instead. A client
 * sending at speed gets its answer and keeps the connection, as with a small body under Go.
 */
function closeAfterUnreadBody(req: IncomingMessage, res: ServerResponse | Http2ServerResponse): void {
  // Taken now: node detaches the socket from a request that has ended.
  const socket = req.socket;
  res.once('finish', () => {
    if (req.complete || socket.destroyed) return;
    const timer = setTimeout(() => {
      if (!req.complete) socket.destroy();
    }, unreadInputDrainMs);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
  });
}
