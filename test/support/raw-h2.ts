/**
 * Test support: an HTTP/2 client written frame by frame over TLS, to misbehave as node:http2's
 * client never would (reset streams by the thousand, header blocks that never end, more streams
 * than allowed). It records what the server sends back: statuses, resets, GOAWAY, the close.
 */
import type { Socket } from 'node:net';
import { connect } from 'node:tls';

export const frameType = {
  data: 0,
  headers: 1,
  rstStream: 3,
  settings: 4,
  ping: 6,
  goaway: 7,
  continuation: 9,
};
export const flag = { endStream: 0x1, ack: 0x1, endHeaders: 0x4 };

export interface GoAway {
  readonly lastStreamId: number;
  readonly code: number;
}

export interface RawH2Options {
  readonly port: number;
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
  /** Send the preface and SETTINGS at once (default true). */
  readonly preface?: boolean;
}

export function frame(
  type: number,
  flags: number,
  streamId: number,
  payload: Uint8Array = new Uint8Array(),
): Buffer {
  const b = Buffer.alloc(9 + payload.byteLength);
  b.writeUIntBE(payload.byteLength, 0, 3);
  b[3] = type;
  b[4] = flags;
  b.writeUInt32BE(streamId, 5);
  b.set(payload, 9);
  return b;
}

/** An HPACK integer with a 7-bit prefix (RFC 7541 5.1), the Huffman bit clear. */
function length7(n: number): Buffer {
  if (n < 127) return Buffer.from([n]);
  const out = [127];
  let rest = n - 127;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** An HPACK string literal, without Huffman coding. */
function literal(s: string): Buffer {
  const bytes = Buffer.from(s, 'latin1');
  return Buffer.concat([length7(bytes.length), bytes]);
}

/**
 * A request's header block: :method GET and :scheme https from HPACK's static table, :path and
 * :authority as literals without indexing (names from the static table), `extra` headers as
 * literals with literal names.
 */
export function requestBlock(
  path: string,
  extra: Readonly<Record<string, string>> = {},
  method = 'GET',
): Buffer {
  const parts: Buffer[] = [Buffer.from([method === 'GET' ? 0x82 : 0x83, 0x87])];
  parts.push(Buffer.from([0x04]), literal(path), Buffer.from([0x01]), literal('127.0.0.1'));
  for (const [name, value] of Object.entries(extra))
    parts.push(Buffer.from([0x00]), literal(name), literal(value));
  return Buffer.concat(parts);
}

export function rstPayload(code: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(code);
  return b;
}

export class RawH2 {
  readonly socket: Socket;
  /** :status per stream (the first byte of the HPACK block tells only indexed 200/404/... ). */
  readonly responded = new Set<number>();
  /** RST_STREAM codes the server sent, by stream. */
  readonly resets = new Map<number, number>();
  /** DATA bytes received per stream. */
  readonly received = new Map<number, number>();
  /** Streams the server ended. */
  readonly ended = new Set<number>();
  /** Every GOAWAY the server sent, in order. */
  readonly goaways: GoAway[] = [];
  readonly closed: Promise<void>;
  /**
   * Resolves once the server's SETTINGS came and were acknowledged: a header block started after
   * this is not interrupted by the acknowledgement (which would be a protocol error).
   */
  readonly ready: Promise<void>;
  #settled!: () => void;
  #buf: Buffer = Buffer.alloc(0);

  private constructor(socket: Socket) {
    this.socket = socket;
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    this.ready = new Promise((resolve) => (this.#settled = resolve));
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => this.#read(d));
  }

  static async open(o: RawH2Options): Promise<RawH2> {
    const socket = connect({
      port: o.port,
      host: '127.0.0.1',
      ca: o.ca,
      ALPNProtocols: ['h2'],
      ...(o.cert !== undefined && o.key !== undefined ? { cert: o.cert, key: o.key } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', () => resolve());
      socket.once('error', reject);
    });
    if (socket.alpnProtocol !== 'h2') throw new Error(`ALPN chose ${String(socket.alpnProtocol)}`);
    const c = new RawH2(socket);
    if (o.preface !== false) c.preface();
    return c;
  }

  /** A client over a connected socket (cleartext HTTP/2 to a test's own server), preface sent. */
  static over(socket: Socket): RawH2 {
    const c = new RawH2(socket);
    c.preface();
    return c;
  }

  preface(): void {
    this.write(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'));
    this.write(frame(frameType.settings, 0, 0));
  }

  /** Writes unless the server closed the connection; false then. */
  write(b: Buffer): boolean {
    if (this.socket.destroyed || !this.socket.writable) return false;
    this.socket.write(b);
    return true;
  }

  #read(d: Buffer): void {
    this.#buf = this.#buf.length === 0 ? d : Buffer.concat([this.#buf, d]);
    while (this.#buf.length >= 9) {
      const len = this.#buf.readUIntBE(0, 3);
      if (this.#buf.length < 9 + len) return;
      const type = this.#buf[3]!;
      const flags = this.#buf[4]!;
      const id = this.#buf.readUInt32BE(5) & 0x7fffffff;
      const payload = this.#buf.subarray(9, 9 + len);
      this.#buf = this.#buf.subarray(9 + len);
      if (type === frameType.settings && (flags & flag.ack) === 0) {
        this.write(frame(frameType.settings, flag.ack, 0));
        this.#settled();
      } else if (type === frameType.ping && (flags & flag.ack) === 0)
        this.write(frame(frameType.ping, flag.ack, 0, payload));
      else if (type === frameType.goaway)
        this.goaways.push({
          lastStreamId: payload.readUInt32BE(0) & 0x7fffffff,
          code: payload.readUInt32BE(4),
        });
      else if (type === frameType.rstStream) this.resets.set(id, payload.readUInt32BE(0));
      else if (type === frameType.headers) this.responded.add(id);
      else if (type === frameType.data) this.received.set(id, (this.received.get(id) ?? 0) + len);
      if ((type === frameType.data || type === frameType.headers) && (flags & flag.endStream) !== 0)
        this.ended.add(id);
    }
  }

  /**
   * Sends a header block as HEADERS and CONTINUATION frames of at most `max` bytes (default: the
   * protocol's initial SETTINGS_MAX_FRAME_SIZE, 16 KiB), the last with END_HEADERS.
   */
  sendHeaders(streamId: number, block: Buffer, endStream: boolean, max = 16 * 1024): void {
    for (let at = 0, first = true; first || at < block.length; first = false) {
      const part = block.subarray(at, at + max);
      at += part.length;
      const last = at >= block.length;
      const flags = (last ? flag.endHeaders : 0) | (first && endStream ? flag.endStream : 0);
      this.write(frame(first ? frameType.headers : frameType.continuation, flags, streamId, part));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}
