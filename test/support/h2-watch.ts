/** Test support: watches over one HTTP/2 session to a test server, collecting their JSON lines. */
import { connect } from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2';
import type { TestServer } from './server.js';

export interface CollectedWatch<T> {
  /** Every line received so far, parsed. */
  readonly lines: T[];
  /** Resolves with the response status. */
  readonly status: Promise<number>;
  /** Resolves when the stream closes. */
  readonly ended: Promise<void>;
  readonly stream: ClientHttp2Stream;
}

/** An HTTP/2 session with the server's admin credentials. */
export function adminSession(server: TestServer): ClientHttp2Session {
  return connect(server.url, { ca: server.pki.caCert, cert: server.pki.adminCert, key: server.pki.adminKey });
}

/** Opens `path` (which carries `watch=1`) on `session` and parses each line as it arrives. */
export function collectWatch<T = Record<string, unknown>>(
  session: ClientHttp2Session,
  path: string,
): CollectedWatch<T> {
  const lines: T[] = [];
  const stream = session.request({ ':path': path, accept: 'application/json' });
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)) as T);
      buf = buf.slice(nl + 1);
    }
  });
  const status = new Promise<number>((resolve) =>
    stream.on('response', (h) => resolve(Number(h[':status']))),
  );
  const ended = new Promise<void>((resolve) => stream.on('close', () => resolve()));
  return { lines, status, ended, stream };
}

/** Waits until `cond` holds (polling), failing after `ms`. */
export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
