/**
 * WebSocket streaming as kube-apiserver v1.27 and its kubelet serve it (k8s.io/apiserver
 * util/wsstream): command sessions (pods/exec, attach) on the channel protocols, where each
 * message starts with its channel (0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize; the base64
 * protocols send text: the channel as a digit, then base64), and streamed bodies (pods/log) on
 * the reader protocols, raw bytes or base64 text without a channel. The framing itself is the
 * `ws` library's.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { StreamSession } from '../../machinery/stream-session.js';
import type { UpgradedConnection } from '../upgrade-response.js';
import {
  endStatus,
  headerList,
  negotiate,
  websocketChannelProtocols,
  websocketReaderProtocols,
} from './remotecommand.js';

const channels = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4 } as const;
/** Bytes a reader sends per message (wsstream's read buffer). */
const readerChunk = 2048;

/** Upgrade: websocket and Connection: upgrade (wsstream.IsWebSocketRequest). */
export function isWebSocketRequest(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): boolean {
  const upgrade = headers['upgrade'];
  if (typeof upgrade !== 'string' || upgrade.toLowerCase() !== 'websocket') return false;
  return headerList(headers['connection']).some((v) => v.toLowerCase() === 'upgrade');
}

/**
 * The subprotocol chosen among those the client offers on its first Sec-WebSocket-Protocol line
 * ('' when it offers none); undefined when none is served: the handshake fails.
 */
export function websocketProtocol(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  kind: 'channel' | 'reader',
): string | undefined {
  const raw = headers['sec-websocket-protocol'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  const offered = headerList(first);
  if (offered.length === 0) return '';
  return negotiate(offered, kind === 'channel' ? websocketChannelProtocols : websocketReaderProtocols);
}

/** x/net/websocket's answer to a handshake it refuses: a bare 403, then the connection closes. */
export function refuseWebSocket(conn: UpgradedConnection): void {
  conn.socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  conn.done();
}

function accept(conn: UpgradedConnection, protocol: string): Promise<WebSocket | undefined> {
  const server = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: 1024 * 1024,
    handleProtocols: () => (protocol === '' ? false : protocol),
  });
  return new Promise((resolve) => {
    // A request ws refuses (no key, wrong version, not GET) gets its 400/405 and no callback.
    conn.socket.once('close', () => resolve(undefined));
    // ws reads the request's method and headers only: a request the network thread forwarded
    // (net-thread/) carries both as node's does.
    const req = conn.req as unknown as IncomingMessage;
    server.handleUpgrade(req, conn.socket, conn.head, (ws) => resolve(ws));
  });
}

async function send(ws: WebSocket, data: Buffer | string): Promise<void> {
  if (ws.readyState !== WebSocket.OPEN) return;
  await new Promise<void>((resolve) => ws.send(data, () => resolve()));
}

function closed(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
}

/** Ends a session as wsstream does: a close frame (1000), a second for the client's, then the socket. */
async function finish(ws: WebSocket, conn: UpgradedConnection): Promise<void> {
  if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  await Promise.race([closed(ws), new Promise((r) => setTimeout(r, 1000).unref())]);
  ws.terminate();
  conn.done();
}

/** Serves a command session on the channel protocol chosen (see {@link websocketProtocol}). */
export async function serveWebSocketSession(o: {
  readonly conn: UpgradedConnection;
  readonly protocol: string;
  readonly session: StreamSession;
  readonly signal: AbortSignal;
}): Promise<void> {
  const ws = await accept(o.conn, o.protocol);
  if (ws === undefined) {
    o.conn.done();
    return;
  }
  const base64 = o.protocol.includes('base64');
  const v4 = o.protocol.startsWith('v4.');
  const message = (channel: number, data: Uint8Array): Buffer | string =>
    base64
      ? `${channel}${Buffer.from(data).toString('base64')}`
      : Buffer.concat([Buffer.from([channel]), data]);
  const gone = new AbortController();
  const abort = (): void => gone.abort();
  o.signal.addEventListener('abort', abort, { once: true });
  ws.once('close', abort);
  // Messages from the client (stdin, resize) are read and dropped: v1–v4 have no way to say that
  // stdin ended, so a command here reads no input.
  ws.on('message', () => undefined);
  try {
    const s = o.session;
    const stderrToo = s.stderr && !s.tty;
    // First an empty message on the lowest output channel asked for.
    const first = s.stdout ? channels.stdout : stderrToo ? channels.stderr : channels.error;
    await send(ws, message(first, Buffer.alloc(0)));
    const end = await s.run({
      stdin: (async function* () {})(),
      stdout: async (chunk) => (s.stdout ? send(ws, message(channels.stdout, chunk)) : undefined),
      stderr: async (chunk) =>
        stderrToo
          ? send(ws, message(channels.stderr, chunk))
          : s.tty && s.stdout
            ? send(ws, message(channels.stdout, chunk))
            : undefined,
      signal: gone.signal,
    });
    const status = endStatus(end, v4 ? 4 : 1);
    if (status !== undefined) await send(ws, message(channels.error, Buffer.from(status)));
  } finally {
    o.signal.removeEventListener('abort', abort);
    await finish(ws, o.conn);
  }
}

/** Streams a body (pods/log) on the reader protocol chosen: an empty message first, then chunks. */
export async function serveWebSocketReader(o: {
  readonly conn: UpgradedConnection;
  readonly protocol: string;
  readonly body: AsyncIterable<string> | Iterable<string>;
  readonly signal: AbortSignal;
}): Promise<void> {
  const ws = await accept(o.conn, o.protocol);
  if (ws === undefined) {
    o.conn.done();
    return;
  }
  const base64 = o.protocol === 'base64.binary.k8s.io';
  const message = (data: Buffer): Buffer | string => (base64 ? data.toString('base64') : data);
  ws.on('message', () => undefined);
  try {
    await send(ws, message(Buffer.alloc(0)));
    for await (const chunk of o.body) {
      if (o.signal.aborted || ws.readyState !== WebSocket.OPEN) break;
      const bytes = Buffer.from(chunk);
      for (let at = 0; at < bytes.byteLength; at += readerChunk)
        await send(ws, message(bytes.subarray(at, at + readerChunk)));
    }
  } finally {
    await finish(ws, o.conn);
  }
}
