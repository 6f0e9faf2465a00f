/**
 * Sends fuzz cases to a server over HTTPS (HTTP/1.1 through a keep-alive agent, or HTTP/2 on one
 * session) and collects the answer with a deadline: no answer head in time is a hang; a 2xx whose
 * body keeps streaming (watches, followed logs) is cut off and reported as streaming.
 */
import { connect } from 'node:http2';
import type { ClientHttp2Session, IncomingHttpHeaders } from 'node:http2';
import { Agent, request } from 'node:https';
import { bodyBytes } from './case.js';
import type { FuzzCase } from './case.js';

export interface Credentials {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export type Outcome =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
      readonly body: Buffer;
      /** The body did not end in time after a 2xx head (a stream). */
      readonly streaming: boolean;
    }
  /** No answer head within the deadline, or a body that did not end. */
  | { readonly kind: 'hang'; readonly phase: 'head' | 'body' }
  /** The connection failed (reset, closed without an answer). */
  | { readonly kind: 'error'; readonly message: string }
  /** The client library refused to send it (a path Node will not write); not the server's fault. */
  | { readonly kind: 'unsendable'; readonly message: string };

export interface SenderOptions {
  readonly port: number;
  readonly credentials: Credentials;
  /** How long to wait for the head, and for a non-streaming body to end. */
  readonly timeoutMs: number;
  /** How long a 2xx body may stream before it is cut off. */
  readonly streamMs: number;
  /** At most this many body bytes are kept. */
  readonly maxBodyBytes: number;
}

export class Sender {
  readonly #o: SenderOptions;
  readonly #agent: Agent;
  #session: ClientHttp2Session | undefined;
  /** GOAWAY codes the server sent (a session it ended). */
  readonly goaways: number[] = [];

  constructor(o: SenderOptions) {
    this.#o = o;
    this.#agent = new Agent({ keepAlive: true, maxSockets: 16, ...o.credentials });
  }

  send(c: FuzzCase): Promise<Outcome> {
    return c.http2 === true ? this.#sendH2(c) : this.#sendH1(c, true);
  }

  close(): void {
    this.#agent.destroy();
    // destroy, not close: close waits for streams the server may never end (cut-off watches).
    this.#session?.destroy();
    this.#session = undefined;
  }

  /**
   * `retry`: a request on a kept-alive socket the server closed as idle just then fails before
   * any answer; it is sent once more on a new socket (the race is the client's, not the server's).
   */
  #sendH1(c: FuzzCase, retry: boolean): Promise<Outcome> {
    // Node's client waits for a tunnel on CONNECT and never reports the answer.
    if (c.method === 'CONNECT')
      return Promise.resolve({ kind: 'unsendable', message: 'CONNECT over HTTP/1.1' });
    const body = c.body === undefined ? undefined : bodyBytes(c.body);
    const headers: Record<string, string> = { accept: 'application/json', ...c.headers };
    if (body !== undefined) headers['content-length'] = String(body.length);
    return new Promise<Outcome>((resolve) => {
      let req: ReturnType<typeof request>;
      try {
        req = request({
          host: '127.0.0.1',
          port: this.#o.port,
          method: c.method,
          path: c.path,
          headers,
          agent: this.#agent,
          // The server echoes some request headers (Audit-Id) and may send many warnings: read
          // heads as large as Go's client does rather than Node's 16 KiB.
          maxHeaderSize: 4 * 1024 * 1024,
        });
      } catch (err) {
        resolve({ kind: 'unsendable', message: String(err) });
        return;
      }
      const collect = new Collector(this.#o, resolve, () => req.destroy());
      req.on('response', (res) => {
        collect.head(res.statusCode ?? 0, res.headers);
        res.on('data', (chunk: Buffer) => collect.data(chunk));
        res.on('end', () => collect.end());
        res.on('error', (err) => collect.fail(err));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && req.reusedSocket && err.code === 'ECONNRESET' && collect.pending()) {
          collect.cancel();
          resolve(this.#sendH1(c, false));
          return;
        }
        collect.fail(err);
      });
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  #h2(): ClientHttp2Session {
    if (this.#session === undefined || this.#session.closed || this.#session.destroyed) {
      // Bodies of several MiB in flight at once: room for them in the client's session (Node's
      // default of 10 MB would make the client itself reset every stream with ENHANCE_YOUR_CALM).
      const session = connect(`https://127.0.0.1:${this.#o.port}`, {
        ...this.#o.credentials,
        maxSessionMemory: 512,
      });
      session.on('error', () => undefined);
      session.on('goaway', (code: number) => {
        this.goaways.push(code);
        if (this.#session === session) this.#session = undefined;
      });
      session.unref();
      this.#session = session;
    }
    return this.#session;
  }

  #sendH2(c: FuzzCase): Promise<Outcome> {
    const body = c.body === undefined ? undefined : bodyBytes(c.body);
    return new Promise<Outcome>((resolve) => {
      let stream: ReturnType<ClientHttp2Session['request']>;
      try {
        stream = this.#h2().request(
          {
            ':method': c.method,
            ':path': c.path,
            accept: 'application/json',
            ...c.headers,
            ...(body !== undefined ? { 'content-length': String(body.length) } : {}),
          },
          { endStream: body === undefined },
        );
      } catch (err) {
        resolve({ kind: 'unsendable', message: String(err) });
        return;
      }
      const collect = new Collector(this.#o, resolve, () => stream.close());
      stream.on('response', (h: IncomingHttpHeaders) => {
        const { ':status': status, ...rest } = h;
        collect.head(Number(status ?? 0), rest);
      });
      stream.on('data', (chunk: Buffer) => collect.data(chunk));
      stream.on('end', () => collect.end());
      stream.on('error', (err: Error) => collect.fail(err));
      if (body !== undefined) stream.end(body);
      else stream.end();
    });
  }
}

/** One request's answer as it arrives, settled once. */
class Collector {
  readonly #o: SenderOptions;
  readonly #resolve: (o: Outcome) => void;
  readonly #abort: () => void;
  #status = 0;
  #headers: Record<string, string | string[] | undefined> = {};
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #settled = false;
  #timer: NodeJS.Timeout;

  constructor(o: SenderOptions, resolve: (o: Outcome) => void, abort: () => void) {
    this.#o = o;
    this.#resolve = resolve;
    this.#abort = abort;
    this.#timer = setTimeout(() => this.#settle({ kind: 'hang', phase: 'head' }), o.timeoutMs);
  }

  head(status: number, headers: Record<string, string | string[] | undefined>): void {
    if (this.#settled) return;
    this.#status = status;
    this.#headers = headers;
    clearTimeout(this.#timer);
    const ok = status >= 200 && status < 300;
    this.#timer = setTimeout(
      () => this.#settle(ok ? this.#answer(true) : { kind: 'hang', phase: 'body' }),
      ok ? this.#o.streamMs : this.#o.timeoutMs,
    );
  }

  data(chunk: Buffer): void {
    if (this.#settled) return;
    if (this.#size < this.#o.maxBodyBytes) this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  /** No head yet. */
  pending(): boolean {
    return !this.#settled && this.#status === 0;
  }

  /** Settles nothing: the request is being sent again. */
  cancel(): void {
    this.#settled = true;
    clearTimeout(this.#timer);
  }

  end(): void {
    this.#settle(this.#answer(false));
  }

  fail(err: Error): void {
    // A stream cut off by us after settling is not an error.
    this.#settle({ kind: 'error', message: err.message });
  }

  #answer(streaming: boolean): Outcome {
    return {
      kind: 'answer',
      status: this.#status,
      headers: this.#headers,
      body: Buffer.concat(this.#chunks),
      streaming,
    };
  }

  #settle(o: Outcome): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    if (o.kind !== 'answer' || o.streaming) this.#abort();
    this.#resolve(o);
  }
}
