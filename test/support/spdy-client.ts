/**
 * A SPDY/3.1 remote command client for tests, doing what client-go's SPDY executor does: an
 * HTTP/1.1 upgrade request offering stream protocols, then one stream per channel (error, stdin,
 * stdout, stderr, resize) each waited on for its SYN_REPLY, stdin written and closed, and every
 * stream's bytes collected until the server closes the connection.
 */
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { FrameReader, FrameWriter } from '../../src/apiserver/streaming/spdy/frames.js';

export interface SpdyExecResult {
  /** The 101's headers, or the refusal's status, headers and body. */
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Bytes received per stream type. */
  readonly streams: Readonly<Record<string, string>>;
}

export interface SpdyExecOptions {
  readonly port: number;
  readonly tls: { readonly ca: string; readonly cert: string; readonly key: string };
  readonly path: string;
  readonly protocols?: readonly string[];
  /** Header overrides (e.g. a wrong Upgrade). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stream types to open, in client-go's order. */
  readonly streams: readonly string[];
  readonly stdin?: string;
  readonly timeoutMs?: number;
}

export function spdyExec(o: SpdyExecOptions): Promise<SpdyExecResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {
      connection: 'Upgrade',
      upgrade: 'SPDY/3.1',
      ...(o.protocols !== undefined ? { 'x-stream-protocol-version': [...o.protocols] } : {}),
      ...(o.headers ?? {}),
    };
    const req = request({
      host: '127.0.0.1',
      port: o.port,
      method: 'POST',
      path: o.path,
      headers,
      ...o.tls,
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`spdyExec ${o.path} timed out`));
    }, o.timeoutMs ?? 15_000);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, streams: {} });
      });
    });
    req.on('upgrade', (res: IncomingMessage, socket: Duplex) => {
      const writer = new FrameWriter();
      const reader = new FrameReader();
      const ids = new Map<number, string>();
      const received: Record<string, string> = {};
      const replied = new Set<number>();
      let next = 1;
      let pending: (() => void) | undefined;
      socket.on('data', (chunk: Buffer) => {
        for (const f of reader.push(chunk)) {
          if (f.type === 'synReply') {
            replied.add(f.streamId);
            pending?.();
          } else if (f.type === 'data' && f.data.byteLength > 0) {
            const type = ids.get(f.streamId) ?? '?';
            received[type] = (received[type] ?? '') + f.data.toString('utf8');
          } else if (f.type === 'ping') socket.write(writer.ping(f.id));
        }
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', streams: received });
      });
      void (async () => {
        for (const type of o.streams) {
          const id = next;
          next += 2;
          ids.set(id, type);
          socket.write(writer.synStream(id, new Map([['streamtype', [type]]])));
          await new Promise<void>((done) => {
            pending = () => {
              if (replied.has(id)) done();
            };
            pending();
          });
        }
        for (const [id, type] of ids) {
          if (type === 'stdin') socket.write(writer.data(id, Buffer.from(o.stdin ?? ''), true));
          if (type === 'resize') socket.write(writer.data(id, Buffer.from('{"Width":80,"Height":24}\n')));
        }
      })();
    });
    req.end();
  });
}
