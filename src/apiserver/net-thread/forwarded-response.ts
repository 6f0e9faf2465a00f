/**
 * The answer to a forwarded request, on the main thread: what handlers write goes to the network
 * thread as messages (a head, chunks, an end; an answer written at once is one message). write()
 * returns false once `responseWindowBytes` are sent and not yet taken by the connection, and
 * 'drain' follows the network thread's acknowledgements, as a socket's flow control would: a
 * client that stops reading (a watcher) stops its answer here too.
 */
import { HeaderedResponse } from '../headered-response.js';
import type { ServerResponseLike } from '../response.js';
import type { ForwardedRequest } from './forwarded-request.js';
import { responseWindowBytes } from './protocol.js';
import type { NetDown } from './protocol.js';

export type PostDown = (m: NetDown, transfer?: readonly ArrayBuffer[]) => void;

export class ForwardedResponse extends HeaderedResponse implements ServerResponseLike {
  readonly req: ForwardedRequest;
  writableEnded = false;
  writableFinished = false;
  readonly #id: number;
  readonly #post: PostDown;
  /** The head went to the network thread (headersSent is true from writeHead on, as node's). */
  #headPosted = false;
  #unacked = 0;
  /** The client went away or the answer was dropped: nothing more is sent. */
  #gone = false;

  constructor(req: ForwardedRequest, id: number, post: PostDown) {
    super();
    this.req = req;
    this.#id = id;
    this.#post = post;
  }

  flushHeaders(): void {
    if (this.#headPosted || this.#gone) return;
    this.#send(undefined, false);
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.writableEnded || this.#gone) return false;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.byteLength === 0 && this.#headPosted) return this.#unacked < responseWindowBytes;
    this.#send(bytes, false);
    return this.#unacked < responseWindowBytes;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    if (!this.#gone) {
      const bytes =
        chunk === undefined ? undefined : typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      this.#send(bytes, true);
    }
    this.writableFinished = true;
    this.emit('finish');
    this.emit('close');
    return this;
  }

  /** Drops the answer (HTTP/2 RST_STREAM CANCEL; HTTP/1.1 closes the connection). */
  destroy(): this {
    if (this.#gone || this.writableEnded) return this;
    this.#gone = true;
    this.#post({ t: 'reset', id: this.#id });
    this.emit('close');
    return this;
  }

  /** The network thread took `bytes` more of the answer. */
  acknowledged(bytes: number): void {
    const before = this.#unacked;
    this.#unacked -= bytes;
    if (before >= responseWindowBytes && this.#unacked < responseWindowBytes) this.emit('drain');
  }

  /** The client went away before the end: the work for this answer stops ('close'). */
  clientGone(): void {
    if (this.#gone || this.writableEnded) return;
    this.#gone = true;
    this.emit('close');
  }

  #send(bytes: Uint8Array | undefined, end: boolean): void {
    const head = !this.#headPosted;
    this.#headPosted = true;
    this.headersSent = true;
    // A copy of its own, transferred: the chunk may be a view of a pool or of a cached buffer.
    const copy = bytes !== undefined && bytes.byteLength > 0 ? new Uint8Array(bytes) : undefined;
    if (copy !== undefined) this.#unacked += copy.byteLength;
    this.#post(
      {
        t: 'res',
        id: this.#id,
        ...(head ? { status: this.statusCode, headers: Object.fromEntries(this.headerEntries()) } : {}),
        ...(copy !== undefined ? { chunk: copy } : {}),
        ...(end ? { end: true } : {}),
      },
      copy !== undefined ? [copy.buffer] : undefined,
    );
  }
}
