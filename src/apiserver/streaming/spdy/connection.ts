/**
 * The server side of a SPDY/3.1 connection as Kubernetes' streaming clients use it (client-go's
 * spdy round tripper over moby/spdystream): the client opens every stream (odd ids) with
 * SYN_STREAM and waits for SYN_REPLY before it sends or accepts data; pings are echoed; a GOAWAY,
 * a protocol error or the socket closing ends every stream. spdystream keeps no flow-control
 * windows (it neither sends nor waits for WINDOW_UPDATE), so neither does this side; the socket's
 * own backpressure paces writes.
 */
import type { Duplex } from 'node:stream';
import { FrameReader, FrameWriter, rstStatus } from './frames.js';
import type { SpdyFrame } from './frames.js';
import { SpdyProtocolError } from './header-block.js';
import type { SpdyHeaders } from './header-block.js';

/** Largest data frame written (spdystream reads any size; smaller frames interleave streams). */
const maxDataFrame = 32 * 1024;
/** Bytes a stream may have received and not yet consumed before the connection is cut. */
const maxUnreadBytes = 4 * 1024 * 1024;
/** Streams one connection may open (a command session uses at most five). */
const maxStreams = 32;

/** One stream the client opened. */
export class SpdyStream {
  readonly id: number;
  readonly headers: SpdyHeaders;
  readonly #conn: SpdyServerConnection;
  readonly #chunks: Buffer[] = [];
  #unread = 0;
  /** The client's half is done (FIN, reset, or the connection ended). */
  #remoteDone = false;
  /** This side's half is done. */
  #localDone = false;
  #replied = false;
  #wake: (() => void) | undefined;

  constructor(id: number, headers: SpdyHeaders, conn: SpdyServerConnection) {
    this.id = id;
    this.headers = headers;
    this.#conn = conn;
  }

  /** The first value of a header (names are lower case). */
  header(name: string): string | undefined {
    return this.headers.get(name)?.[0];
  }

  /** Accepts the stream (SYN_REPLY with no headers, as the kubelet answers every stream). */
  reply(): void {
    if (this.#replied) return;
    this.#replied = true;
    this.#conn.send(this.#conn.writer.synReply(this.id, new Map()));
  }

  /** The bytes the client sends, until its FIN (or the connection ends). */
  async *data(): AsyncGenerator<Buffer> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        this.#unread -= chunk.byteLength;
        yield chunk;
        continue;
      }
      if (this.#remoteDone) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Writes bytes on the stream; resolves when the socket takes more. */
  async write(data: Uint8Array): Promise<void> {
    if (this.#localDone) return;
    this.reply();
    for (let at = 0; at < data.byteLength; at += maxDataFrame) {
      await this.#conn.sendAndWait(this.#conn.writer.data(this.id, data.subarray(at, at + maxDataFrame)));
    }
  }

  /** Ends this side of the stream (an empty data frame with FIN). */
  end(): void {
    if (this.#localDone) return;
    this.reply();
    this.#localDone = true;
    this.#conn.send(this.#conn.writer.data(this.id, Buffer.alloc(0), true));
  }

  /** @internal */
  received(data: Buffer, fin: boolean): void {
    if (this.#remoteDone) return;
    if (data.byteLength > 0) {
      this.#unread += data.byteLength;
      if (this.#unread > maxUnreadBytes) {
        this.#conn.fail(new SpdyProtocolError(`stream ${this.id}: more than ${maxUnreadBytes} bytes unread`));
        return;
      }
      this.#chunks.push(data);
    }
    if (fin) this.#remoteDone = true;
    this.#notify();
  }

  /** @internal the client reset the stream or the connection ended. */
  closed(): void {
    this.#remoteDone = true;
    this.#localDone = true;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

export interface SpdyConnectionOptions {
  /** Called for each stream the client opens; reply() accepts it. */
  readonly onStream: (stream: SpdyStream) => void;
  /** Called once when the connection ends (the client went away, a protocol error, or close()). */
  readonly onClose?: (err?: Error) => void;
}

export class SpdyServerConnection {
  readonly writer = new FrameWriter();
  readonly #socket: Duplex;
  readonly #reader = new FrameReader();
  readonly #streams = new Map<number, SpdyStream>();
  readonly #o: SpdyConnectionOptions;
  #lastStreamId = 0;
  #closed = false;

  /** Starts reading `socket` (already switched to SPDY); `head` holds bytes read past the request. */
  constructor(socket: Duplex, head: Buffer, o: SpdyConnectionOptions) {
    this.#socket = socket;
    this.#o = o;
    if (head.byteLength > 0) this.#receive(head);
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.once('close', () => this.#end());
    socket.once('end', () => this.#end());
    // Node hands an upgraded socket over paused.
    socket.resume();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The id of the last stream the client opened (0: none), as GOAWAY names it. */
  get lastStreamId(): number {
    return this.#lastStreamId;
  }

  /** @internal */
  send(frame: Buffer): boolean {
    if (this.#closed || this.#socket.destroyed) return true;
    return this.#socket.write(frame);
  }

  /** @internal writes and waits for the socket to drain when its buffer is full. */
  async sendAndWait(frame: Buffer): Promise<void> {
    if (this.send(frame) || this.#closed) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.#socket.off('drain', done);
        this.#socket.off('close', done);
        resolve();
      };
      this.#socket.once('drain', done);
      this.#socket.once('close', done);
    });
  }

  /** Ends the connection once what was written has gone out (the kubelet's conn.Close()). */
  close(): void {
    if (this.#closed) return;
    this.#socket.end();
    this.#end();
  }

  /** @internal a protocol error: the connection is cut. */
  fail(err: Error): void {
    if (this.#closed) return;
    this.send(this.writer.goAway(this.#lastStreamId, 1));
    this.#socket.end();
    this.#end(err);
  }

  #receive(chunk: Buffer): void {
    if (this.#closed) return;
    let frames: SpdyFrame[];
    try {
      frames = this.#reader.push(chunk);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    for (const f of frames) this.#frame(f);
  }

  #frame(f: SpdyFrame): void {
    switch (f.type) {
      case 'synStream': {
        // Client streams have odd, increasing ids.
        if (f.streamId % 2 === 0 || f.streamId <= this.#lastStreamId) {
          this.send(this.writer.rstStream(f.streamId, rstStatus.protocolError));
          return;
        }
        this.#lastStreamId = f.streamId;
        if (this.#streams.size >= maxStreams) {
          this.send(this.writer.rstStream(f.streamId, rstStatus.refusedStream));
          return;
        }
        const stream = new SpdyStream(f.streamId, f.headers, this);
        this.#streams.set(f.streamId, stream);
        if (f.fin) stream.received(Buffer.alloc(0), true);
        this.#o.onStream(stream);
        return;
      }
      case 'data': {
        const s = this.#streams.get(f.streamId);
        if (s === undefined) {
          this.send(this.writer.rstStream(f.streamId, rstStatus.invalidStream));
          return;
        }
        s.received(f.data, f.fin);
        return;
      }
      case 'headers': {
        if (f.fin) this.#streams.get(f.streamId)?.received(Buffer.alloc(0), true);
        return;
      }
      case 'rstStream': {
        this.#streams.get(f.streamId)?.closed();
        this.#streams.delete(f.streamId);
        return;
      }
      case 'ping':
        this.send(this.writer.ping(f.id));
        return;
      case 'goAway':
        this.close();
        return;
      default:
        // SYN_REPLY (this side opens no stream), WINDOW_UPDATE, SETTINGS: nothing to do.
        return;
    }
  }

  #end(err?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#streams.values()) s.closed();
    this.#streams.clear();
    this.#o.onClose?.(err);
  }
}
