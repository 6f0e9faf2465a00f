/**
 * A command session (pods/exec, attach) served over SPDY/3.1, as the kubelet's remotecommand
 * server does it (cri/streaming/remotecommand/httpstream.go, v1.27) and client-go's SPDY executor
 * expects: the protocol handshake on the upgrade request, the 101, then the client opens one
 * stream per channel (`streamtype` error, stdin, stdout, stderr, resize), each answered with a
 * SYN_REPLY; once all are there the command runs; at its end stdout and stderr are closed, the
 * error stream carries the end status (remotecommand.ts) and the server closes the connection.
 */
import { STATUS_CODES } from 'node:http';
import type { StreamSession } from '../../machinery/stream-session.js';
import type { UpgradedConnection } from '../upgrade-response.js';
import { endStatus, headerList, negotiate, protocolVersion, spdyStreamProtocols } from './remotecommand.js';
import { SpdyServerConnection } from './spdy/connection.js';
import type { SpdyStream } from './spdy/connection.js';
import { rstStatus } from './spdy/frames.js';

/** How long the client has to open its streams (the kubelet's DefaultStreamCreationTimeout). */
const streamCreationTimeoutMs = 30_000;

/** An answer that refuses the upgrade before any protocol switch (written as plain HTTP). */
export interface PlainAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: string;
}

/** Go's %#v of an http.Header (`http.Header{"Connection":[]string{"Upgrade"}, …}`), keys sorted. */
function goHeaderRepr(rawHeaders: readonly string[]): string {
  const h = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '')
      .toLowerCase()
      .replace(/(^|-)([a-z])/g, (_m, s: string, c: string) => s + c.toUpperCase());
    h.set(name, [...(h.get(name) ?? []), rawHeaders[i + 1] ?? '']);
  }
  const entries = [...h].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `http.Header{${entries.map(([k, v]) => `${JSON.stringify(k)}:[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}`).join(', ')}}`;
}

/**
 * The kubelet's checks of a SPDY upgrade request, in its order: the protocol handshake
 * (httpstream.Handshake), then the upgrade headers (spdy.NewResponseUpgrader). Returns the
 * protocol chosen, or the answer refusing it.
 */
export function spdyHandshake(req: {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly rawHeaders: readonly string[];
}): { readonly protocol: string } | PlainAnswer {
  const plain = (
    status: number,
    body: string,
    headers: Record<string, string | string[]> = {},
  ): PlainAnswer => ({
    status,
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body,
  });
  const offered = headerList(req.headers['x-stream-protocol-version']);
  if (offered.length === 0) return plain(400, 'unable to upgrade: X-Stream-Protocol-Version is required\n');
  const protocol = negotiate(offered, spdyStreamProtocols);
  if (protocol === undefined) {
    // The kubelet writes the message, then http.Error writes it again under the same 403.
    const message = `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${spdyStreamProtocols.join(' ')}]\n`;
    return plain(403, message + message, { 'x-accepted-stream-protocol-versions': [...spdyStreamProtocols] });
  }
  const connection = headerList(req.headers['connection']).map((v) => v.toLowerCase());
  const upgrade = headerList(req.headers['upgrade']).map((v) => v.toLowerCase());
  if (!connection.includes('upgrade') || !upgrade.includes('spdy/3.1'))
    return plain(
      400,
      `unable to upgrade: missing upgrade headers in request: ${goHeaderRepr(req.rawHeaders)}\n`,
    );
  return { protocol };
}

function switchingProtocols(protocol: string): string {
  return [
    `HTTP/1.1 101 ${STATUS_CODES[101] ?? 'Switching Protocols'}`,
    'Connection: Upgrade',
    'Upgrade: SPDY/3.1',
    `X-Stream-Protocol-Version: ${protocol}`,
    `Date: ${new Date().toUTCString()}`,
    '',
    '',
  ].join('\r\n');
}

async function drain(stream: SpdyStream | undefined): Promise<void> {
  if (stream === undefined) return;
  const it = stream.data();
  while (!(await it.next()).done);
}

/** Serves `session` on the taken-over connection of an upgrade request whose handshake passed. */
export async function serveSpdySession(o: {
  readonly conn: UpgradedConnection;
  readonly protocol: string;
  readonly session: StreamSession;
  readonly signal: AbortSignal;
}): Promise<void> {
  const { conn, session } = o;
  const version = protocolVersion(o.protocol);
  const tty = session.tty;
  const want = {
    error: true,
    stdin: session.stdin,
    stdout: session.stdout,
    // With a terminal, stderr goes to it: the kubelet drops a stderr stream.
    stderr: session.stderr && !tty,
    resize: tty && version >= 3,
  };
  const expected = Object.values(want).filter(Boolean).length;
  const streams = new Map<string, SpdyStream>();
  const gone = new AbortController();
  const abort = (): void => gone.abort();
  o.signal.addEventListener('abort', abort, { once: true });
  let allThere: () => void = () => undefined;
  const gathered = new Promise<void>((resolve) => (allThere = resolve));
  conn.socket.write(switchingProtocols(o.protocol));
  const spdy = new SpdyServerConnection(conn.socket, conn.head, {
    onStream: (s) => {
      s.reply();
      const type = s.header('streamtype') ?? '';
      if (!(type in want) || !want[type as keyof typeof want] || streams.has(type)) return;
      streams.set(type, s);
      if (streams.size === expected) allThere();
    },
    onClose: abort,
  });
  try {
    const timer = setTimeout(abort, streamCreationTimeoutMs);
    await Promise.race([
      gathered,
      new Promise((resolve) => gone.signal.addEventListener('abort', resolve, { once: true })),
    ]);
    clearTimeout(timer);
    if (gone.signal.aborted) return;
    const errorStream = streams.get('error');
    const stdin = streams.get('stdin');
    if (version === 1) {
      // v1's server resets the error stream and closes its half of stdin as soon as the streams
      // are there (a bug kept for old clients): its errors never arrive.
      if (errorStream !== undefined) spdy.send(spdy.writer.rstStream(errorStream.id, rstStatus.cancel));
      stdin?.end();
    }
    void drain(streams.get('resize'));
    const stdout = streams.get('stdout');
    const stderr = streams.get('stderr');
    const end = await session.run({
      stdin: stdin?.data() ?? (async function* () {})(),
      stdout: async (chunk) => stdout?.write(chunk),
      stderr: async (chunk) => (stderr ?? (tty ? stdout : undefined))?.write(chunk),
      signal: gone.signal,
    });
    stdout?.end();
    stderr?.end();
    const status = endStatus(end, version);
    if (status !== undefined && version > 1) await errorStream?.write(Buffer.from(status));
    if (version > 1) errorStream?.end();
    stdin?.end();
    streams.get('resize')?.end();
  } finally {
    o.signal.removeEventListener('abort', abort);
    if (!spdy.closed) {
      spdy.send(spdy.writer.goAway(spdy.lastStreamId));
      spdy.close();
    }
    conn.done();
  }
}
