/**
 * The main thread's end of an upgraded HTTP/1.1 connection (exec, attach, port-forward over SPDY
 * or WebSocket) the network thread holds: a Duplex whose reads are the client's bytes and whose
 * writes go back to it, so the streaming handlers drive it as they drive a socket.
 */
import { Duplex } from 'node:stream';
import type { PostDown } from './forwarded-response.js';
import { responseWindowBytes } from './protocol.js';

export class TunnelSocket extends Duplex {
  readonly remoteAddress: string | undefined;
  readonly #id: number;
  readonly #post: PostDown;
  /** Bytes sent that the client's connection has not taken yet. */
  #unacked = 0;
  /** A write's callback held until acknowledgements bring `#unacked` under the window. */
  #held: (() => void) | undefined;

  constructor(id: number, post: PostDown, remoteAddress: string | undefined) {
    super({ allowHalfOpen: true });
    this.#id = id;
    this.#post = post;
    this.remoteAddress = remoteAddress;
  }

  /** Bytes from the client; undefined: it ended its side. */
  received(chunk: Uint8Array | undefined): void {
    this.push(chunk === undefined ? null : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }

  /** The connection closed on the network thread's side. */
  gone(): void {
    this.destroy();
  }

  /** The client's connection took `bytes` more. */
  acknowledged(bytes: number): void {
    this.#unacked -= bytes;
    if (this.#unacked < responseWindowBytes) {
      const held = this.#held;
      this.#held = undefined;
      held?.();
    }
  }

  override _read(): void {
    // The network thread pushes what the client sends.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const copy = new Uint8Array(chunk);
    this.#unacked += copy.byteLength;
    this.#post({ t: 'sock', id: this.#id, chunk: copy }, [copy.buffer]);
    // As a socket's write: the next one waits while too much is on its way to a slow client.
    if (this.#unacked < responseWindowBytes) callback();
    else this.#held = () => callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#post({ t: 'sock', id: this.#id, end: true });
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#held = undefined;
    this.#post({ t: 'sock', id: this.#id, destroy: true });
    callback(error);
  }

  // What the WebSocket library asks of a socket; the network thread's socket keeps its settings.
  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }
}
