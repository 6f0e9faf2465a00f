/**
 * Requests from components running in the server's own process (`nanokube serve`'s controllers,
 * scheduler and simulated nodes), served without TLS or HTTP: a request object and a response
 * object that stand in for node's, fed to the same request chain (audit, deadline, impersonation,
 * in-flight limits, authorization, admission, negotiation, watch encoding). The caller is known
 * without a credential: only code holding the ApiServer can make these requests, which is what
 * upstream's loopback client achieves with a token minted at start-up.
 */
import { HeaderedResponse } from './headered-response.js';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { UserInfo } from '../machinery/user.js';
import type { ServerResponseLike } from './response.js';

export interface InProcessRequestInit {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborting before the response headers fails the request; after, it cancels the response. */
  readonly signal?: AbortSignal;
}

export interface InProcessResponse {
  readonly status: number;
  /** Ends with the response; throws when the server cut it off (a destroyed response). */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * What the server has written so far and whether that is all of it, taken at once instead of
   * through `body` (which then yields only what follows): most answers are whole by the time their
   * head is known, and a caller relaying them can send head and body together.
   */
  takeWritten(): { readonly chunk: Uint8Array | undefined; readonly ended: boolean };
  cancel(): void;
}

/** An in-process request in flight (ApiServer.startInProcess). */
export interface InProcessCall {
  /** The response head; fails when the request is cancelled or cut off before it. */
  readonly response: Promise<InProcessResponse>;
  /** The caller went away: before the head, `response` fails; after it, the body is cut off. */
  cancel(): void;
  /** Called once the response ended, was cut off or was cancelled. */
  onClose(listener: () => void): void;
}

/** Who made an in-process request (set only by InProcessServerRequest's constructor). */
const callers = new WeakMap<object, UserInfo>();

/** The user of an in-process request; undefined for every request that came over the network. */
export function inProcessCaller(req: object): UserInfo | undefined {
  return callers.get(req);
}

/**
 * The request side: headers, method, url and the body as a readable stream. The port bridge makes
 * thousands of these a second, so what few requests need is made when asked: the raw header list
 * (impersonation, SPDY upgrades) and the stream's contents (readBody takes `wholeBody` instead).
 */
export class InProcessServerRequest extends Readable {
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
  readonly url: string;
  /** The whole body, which readBody takes without streaming it; undefined when there is none. */
  readonly wholeBody: Buffer | undefined;
  #rawHeaders: string[] | undefined;
  #pushed = false;

  constructor(init: InProcessRequestInit, user: UserInfo) {
    super();
    this.method = init.method.toUpperCase();
    this.url = init.path;
    const headers: IncomingHttpHeaders = { 'user-agent': 'nanokube/in-process' };
    for (const name in init.headers) headers[name.toLowerCase()] = init.headers[name];
    this.wholeBody = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
    if (this.wholeBody !== undefined) headers['content-length'] = String(this.wholeBody.byteLength);
    this.headers = headers;
    callers.set(this, user);
  }

  get rawHeaders(): string[] {
    this.#rawHeaders ??= Object.entries(this.headers).flatMap(([k, v]) =>
      v === undefined ? [] : Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, v],
    );
    return this.#rawHeaders;
  }

  override _read(): void {
    if (this.#pushed) return;
    this.#pushed = true;
    if (this.wholeBody !== undefined) this.push(this.wholeBody);
    this.push(null);
  }
}

/** Bytes the server may have written ahead of the reader before write() asks it to wait. */
const highWaterMark = 1024 * 1024;

/**
 * The response side: what handlers write is queued for the caller's body iterator; write()
 * returns false past the high-water mark and 'drain' follows when the reader catches up, as a
 * socket's flow control would.
 */
export class InProcessServerResponse extends HeaderedResponse implements ServerResponseLike {
  readonly req: InProcessServerRequest;
  writableFinished = false;
  readonly #chunks: Buffer[] = [];
  #queued = 0;
  #ended = false;
  /** The response will never complete (server destroyed it, or the caller cancelled). */
  #cut = false;
  #wake: (() => void) | undefined;
  #waking: NodeJS.Immediate | undefined;
  readonly #onHead: (cut?: Error) => void;

  /** `onHead` is called once: when the status is known, or with an error when cut off before. */
  constructor(req: InProcessServerRequest, onHead: (cut?: Error) => void) {
    super();
    this.req = req;
    this.#onHead = onHead;
  }

  protected override headWritten(): void {
    this.#head();
  }

  flushHeaders(): void {
    this.#head();
  }

  write(chunk: string | Uint8Array): boolean {
    this.#head();
    if (this.#cut || this.#ended) return false;
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    if (buf.byteLength > 0) {
      this.#chunks.push(buf);
      this.#queued += buf.byteLength;
      this.#notify();
    }
    return this.#queued < highWaterMark;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.#ended) return this;
    if (chunk !== undefined) this.write(chunk);
    this.#head();
    this.#ended = true;
    this.writableFinished = true;
    this.#notify();
    this.emit('finish');
    this.emit('close');
    return this;
  }

  /** The server gives up on the response: the caller's body iteration fails. */
  destroy(): this {
    this.#cutOff();
    return this;
  }

  /** The caller went away: the server's work for this response stops (its 'close' event). */
  cancel(): void {
    this.#cutOff();
  }

  /** See InProcessResponse.takeWritten. */
  takeWritten(): { readonly chunk: Uint8Array | undefined; readonly ended: boolean } {
    return { chunk: this.#takeQueued(), ended: this.#ended && !this.#cut };
  }

  /** Whatever is queued, as one chunk (undefined when nothing is); the writer may go on. */
  #takeQueued(): Buffer | undefined {
    if (this.#chunks.length === 0) return undefined;
    const chunk = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    this.#chunks.length = 0;
    const before = this.#queued;
    this.#queued = 0;
    if (before >= highWaterMark) this.emit('drain');
    return chunk;
  }

  /**
   * The queued bytes, as the caller reads them: whatever is queued at once, as one chunk. The
   * reader is woken from the event loop (setImmediate), not a microtask, so a busy producer and
   * consumer in this process never starve network I/O, as a socket would not.
   */
  async *body(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const chunk = this.#takeQueued();
        if (chunk !== undefined) {
          yield chunk;
          continue;
        }
        if (this.#ended) return;
        if (this.#cut) throw new Error('the in-process response was cut off before its end');
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      if (!this.#ended) this.#cutOff();
    }
  }

  #head(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.#onHead();
  }

  #cutOff(): void {
    if (this.#cut || this.#ended) return;
    this.#cut = true;
    this.#chunks.length = 0;
    this.#queued = 0;
    this.#notify();
    if (!this.headersSent) {
      this.headersSent = true;
      this.#onHead(new Error('the in-process request ended before a response'));
    }
    this.emit('close');
  }

  #notify(): void {
    if (this.#wake === undefined || this.#waking !== undefined) return;
    this.#waking = setImmediate(() => {
      this.#waking = undefined;
      const wake = this.#wake;
      this.#wake = undefined;
      wake?.();
    });
  }
}
