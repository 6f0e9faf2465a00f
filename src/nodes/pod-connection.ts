/**
 * A TCP connection into a simulated pod, for the API server's own clients (admission and CRD
 * conversion webhooks a Service points at): an in-memory byte stream on which the pod's server
 * speaks real HTTP/1.1, over real TLS with the certificate and key its container reads from its
 * files (a Secret volume) when it serves TLS. The API server's TLS client therefore verifies the
 * certificate against the webhook's caBundle exactly as it would a remote server's.
 *
 * What the server answers comes from the same simulated servers that pods/proxy reaches
 * (PodHttp.request); an answer that is unknowable, or a connection the server drops, closes the
 * connection without an answer (the client reads EOF), as a Go handler that panics does.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TLSSocket, createSecureContext } from 'node:tls';
import type { SecureContext } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { PodHttpOutcome, SimConnection, SimHttpRequest } from '../machinery/http-exchange.js';
import { duplexPair } from '../util/duplex-pair.js';
import type { PodListener } from './containers/pod-sim.js';

/** The largest request body a simulated server reads (an AdmissionReview of a large object fits). */
const maxBodyBytes = 64 * 1024 * 1024;

export interface PodConnectionOptions {
  /** What listens on the port now (PodSim.listening). */
  readonly listening: PodListener;
  /** Answers one request on the port (PodHttp.request for this pod and port). */
  readonly request: (req: SimHttpRequest) => PodHttpOutcome;
}

/** The server's certificate and key, read from its container's files; undefined when unreadable. */
function secureContextOf(l: Extract<PodListener, { kind: 'server' }>): SecureContext | undefined {
  const files = l.listener.tlsFiles;
  if (files === undefined) return undefined;
  try {
    const cert = l.fs.read(files.cert);
    const key = l.fs.read(files.key);
    if (cert === undefined || key === undefined) return undefined;
    return createSecureContext({ cert, key });
  } catch {
    // Files the simulator cannot read (ShellUnsupported), or PEM Node cannot load: the server
    // could not have started.
    return undefined;
  }
}

/** Header values by lower-case name, repeated headers joined as Go's Header.Get sees the first. */
function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  tls: boolean,
  o: PodConnectionOptions,
): void {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const outcome = o.request({
    method: req.method ?? 'GET',
    path: q < 0 ? target : target.slice(0, q),
    rawQuery: q < 0 ? '' : target.slice(q + 1),
    headers: headersOf(req),
    body,
    tls,
  });
  if (outcome.kind !== 'answer') {
    res.socket?.destroy();
    return;
  }
  const r = outcome.response;
  const send = (): void => {
    if (res.destroyed) return;
    // The simulated server's own headers (Date, Content-Length, Content-Type) go as they are.
    res.sendDate = false;
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  };
  const delay = r.delayMs ?? 0;
  if (delay <= 0) {
    send();
    return;
  }
  // A server that sleeps before it answers; a client that gives up closes the connection.
  const timer = Number.isFinite(delay) ? setTimeout(send, delay) : undefined;
  res.on('close', () => clearTimeout(timer));
}

/** Connects to what listens on a pod's port. */
export function connectToPod(o: PodConnectionOptions): SimConnection {
  const l = o.listening;
  if (l.kind === 'refused') return { kind: 'refused' };
  if (l.kind === 'unknowable') return { kind: 'failed', reason: l.reason };
  if (l.listener.protocol !== 'http' || l.listener.serve === undefined) {
    return {
      kind: 'failed',
      reason: `the simulated node does not know what container ${JSON.stringify(l.container)} answers`,
    };
  }
  let context: SecureContext | undefined;
  if (l.listener.tls === true) {
    context = secureContextOf(l);
    if (context === undefined) {
      return {
        kind: 'failed',
        reason: `the simulated node does not know the certificate container ${JSON.stringify(l.container)} serves`,
      };
    }
  }
  const [client, server] = duplexPair();
  const tls = context !== undefined;
  const http = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBodyBytes) req.socket.destroy();
      else chunks.push(c);
    });
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8'), tls, o));
  });
  let socket: Duplex = server;
  if (context !== undefined) {
    const secure = new TLSSocket(server, { isServer: true, secureContext: context });
    // A client that fails the handshake (it does not trust the certificate) just goes away.
    secure.on('error', () => secure.destroy());
    socket = secure;
  }
  socket.on('error', () => socket.destroy());
  http.emit('connection', socket);
  return { kind: 'open', socket: client };
}
