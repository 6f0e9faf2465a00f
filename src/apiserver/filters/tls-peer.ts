/** The client certificate of a request's TLS connection (HTTP/2 or HTTP/1.1), as authentication sees it. */
import { TLSSocket } from 'node:tls';
import type { ClientCertificate } from '../../auth/authenticator.js';
import type { ServerRequest } from '../body.js';

function socketOf(req: ServerRequest): unknown {
  if ('stream' in req) return req.stream.session?.socket;
  // In-process requests have no connection (authentication knows their caller otherwise).
  return 'socket' in req ? req.socket : undefined;
}

function values(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** What each connection presented: a TLS handshake happens once, requests on it are many. */
const byConnection = new WeakMap<TLSSocket, ClientCertificate | null>();

/** Undefined when the connection is not TLS or the client sent no certificate. */
export function clientCertificate(req: ServerRequest): ClientCertificate | undefined {
  const socket = socketOf(req);
  if (!(socket instanceof TLSSocket)) return undefined;
  let known = byConnection.get(socket);
  if (known === undefined) {
    known = presented(socket) ?? null;
    byConnection.set(socket, known);
  }
  return known ?? undefined;
}

function presented(socket: TLSSocket): ClientCertificate | undefined {
  const cert = socket.getPeerCertificate();
  // Without a client certificate Node answers with an empty object.
  if (cert === null || typeof cert !== 'object' || Object.keys(cert).length === 0) return undefined;
  const error = socket.authorizationError;
  return {
    verified: socket.authorized,
    ...(error !== undefined && error !== null ? { error: String(error) } : {}),
    commonName: values(cert.subject?.CN)[0] ?? '',
    organizations: values(cert.subject?.O),
  };
}
