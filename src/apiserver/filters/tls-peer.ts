/** The client certificate of a request's TLS connection (HTTP/2 or HTTP/1.1), as authentication sees it. */
import { TLSSocket } from 'node:tls';
import type { ClientCertificate } from '../../auth/authenticator.js';
import { certificateSubject } from '../../auth/x509-subject.js';
import type { ServerRequest } from '../body.js';
import { ForwardedRequest } from '../net-thread/forwarded-request.js';

function socketOf(req: ServerRequest): unknown {
  if ('stream' in req) return req.stream.session?.socket;
  // In-process requests have no connection (authentication knows their caller otherwise).
  return 'socket' in req ? req.socket : undefined;
}

/** What each connection presented: a TLS handshake happens once, requests on it are many. */
const byConnection = new WeakMap<TLSSocket, ClientCertificate | null>();

/** Undefined when the connection is not TLS or the client sent no certificate. */
export function clientCertificate(req: ServerRequest): ClientCertificate | undefined {
  // A request the network thread received: it read the certificate off its connection.
  if (req instanceof ForwardedRequest) return req.certificate ?? undefined;
  const socket = socketOf(req);
  if (!(socket instanceof TLSSocket)) return undefined;
  return connectionCertificate(socket) ?? undefined;
}

/** The certificate a TLS connection presented (read once per connection); null for none. */
export function connectionCertificate(socket: TLSSocket): ClientCertificate | null {
  let known = byConnection.get(socket);
  if (known === undefined) {
    known = presented(socket) ?? null;
    byConnection.set(socket, known);
  }
  return known;
}

function presented(socket: TLSSocket): ClientCertificate | undefined {
  const cert = socket.getPeerCertificate();
  // Without a client certificate Node answers with an empty object.
  if (cert === null || typeof cert !== 'object' || Object.keys(cert).length === 0) return undefined;
  const error = socket.authorizationError;
  // The subject as Go reads it, from the certificate's bytes (Node's parsed one loses detail);
  // bytes that do not parse name nobody.
  const subject = cert.raw !== undefined ? certificateSubject(cert.raw) : undefined;
  return {
    verified: socket.authorized,
    ...(error !== undefined && error !== null ? { error: String(error) } : {}),
    commonName: subject?.commonName ?? '',
    organizations: subject?.organizations ?? [],
  };
}
