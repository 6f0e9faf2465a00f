/**
 * A small REST client for the Kubernetes API over HTTP/2 and TLS (client-certificate and/or
 * bearer-token credentials): JSON requests, typed API errors, and watches as async iterables.
 * Every request and watch of a client is a stream over a few shared sessions (see SessionPool),
 * so a process can hold hundreds of watches. Controllers reach the cluster only through this,
 * so each can run as a separate process or against a real kube-apiserver.
 */
import { constants, sensitiveHeaders } from 'node:http2';
import type { ClientHttp2Stream, OutgoingHttpHeaders } from 'node:http2';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import type { ClientCredentials } from './credentials.js';
import { SessionPool } from './session-pool.js';
import type { PooledSession, PoolStats } from './session-pool.js';
import { decodeWatchEvents } from './watch-event.js';
import type { WatchEvent } from './watch-event.js';

export { ApiError } from './api-error.js';
export type { ClientCredentials } from './credentials.js';
export type { PoolStats } from './session-pool.js';
export type { WatchEvent, WatchEventType } from './watch-event.js';

export interface RestClientOptions extends ClientCredentials {
  /** Streams one HTTP/2 session carries at most (default: 90% of the server's limit). */
  readonly maxStreamsPerSession?: number;
  /** PING interval of sessions with open streams (default 30 s; 0 disables). */
  readonly pingIntervalMs?: number;
  /** A PING unanswered this long drops its session (default 15 s). */
  readonly pingTimeoutMs?: number;
  /** A session without streams for this long is closed (default 90 s). */
  readonly idleTimeoutMs?: number;
}

export interface RequestOptions {
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Default `application/json`; e.g. `application/merge-patch+json` for a PATCH. */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  /** The Accept header (default `application/json`), e.g. `...;as=PartialObjectMetadataList;...`. */
  readonly accept?: string;
}

/** Options of a watch. */
export interface WatchOptions {
  /** The Accept header (default `application/json`), e.g. `...;as=PartialObjectMetadata;...`. */
  readonly accept?: string;
}

/** A request the server certainly did not process (see PooledSession.unprocessed): safe to resend. */
class Unprocessed extends Error {
  override readonly name = 'Unprocessed';
  constructor(cause: unknown) {
    super('request not processed by the server', { cause });
  }
}

interface Opened {
  readonly status: number;
  readonly stream: ClientHttp2Stream;
}

function closed(stream: ClientHttp2Stream): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((r) => stream.once('close', () => r()));
}

/** The whole body; throws when the stream was reset before its end. */
async function readBody(stream: ClientHttp2Stream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<unknown>) if (Buffer.isBuffer(c)) chunks.push(c);
  await closed(stream);
  if (stream.rstCode !== constants.NGHTTP2_NO_ERROR) {
    throw new Error(`HTTP/2 stream reset before the end of the response (code ${stream.rstCode})`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class RestClient {
  readonly #pool: SessionPool;
  readonly #token: string | undefined;

  constructor(o: RestClientOptions) {
    const url = new URL(o.server);
    if (url.protocol !== 'https:') throw new Error(`server ${o.server}: only https is supported`);
    if ((o.cert === undefined) !== (o.key === undefined)) {
      throw new Error('a client certificate needs its key (cert and key come together)');
    }
    this.#token = o.token;
    this.#pool = new SessionPool({
      origin: url.origin,
      ca: o.ca,
      ...(o.cert !== undefined ? { cert: o.cert } : {}),
      ...(o.key !== undefined ? { key: o.key } : {}),
      ...(o.maxStreamsPerSession !== undefined ? { maxStreamsPerSession: o.maxStreamsPerSession } : {}),
      ...(o.pingIntervalMs !== undefined ? { pingIntervalMs: o.pingIntervalMs } : {}),
      ...(o.pingTimeoutMs !== undefined ? { pingTimeoutMs: o.pingTimeoutMs } : {}),
      ...(o.idleTimeoutMs !== undefined ? { idleTimeoutMs: o.idleTimeoutMs } : {}),
    });
  }

  /** One JSON request; throws ApiError on a non-2xx answer. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<JsonObject> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const { status, stream } = await this.#open(
      method,
      path,
      body,
      options.contentType ?? 'application/json',
      options.signal,
      options.accept,
    );
    const text = await readBody(stream);
    if (status < 200 || status > 299) throw new ApiError(status, text);
    const parsed: unknown = text === '' ? {} : JSON.parse(text);
    if (!isJsonObject(parsed)) throw new ApiError(status, `unexpected response: ${text.slice(0, 200)}`);
    return parsed;
  }

  /**
   * A watch stream (path must carry `watch=1`). Ends when the server ends it, and quietly when
   * `signal` aborts (which resets the stream); throws ApiError when the watch is refused and an
   * Error when the connection is lost mid-stream. Leaving the loop early also closes the stream.
   */
  async *watch(path: string, signal: AbortSignal, options: WatchOptions = {}): AsyncGenerator<WatchEvent> {
    let stream: ClientHttp2Stream | undefined;
    try {
      const opened = await this.#open('GET', path, undefined, '', signal, options.accept);
      stream = opened.stream;
      if (opened.status !== 200) throw new ApiError(opened.status, await readBody(stream));
      yield* decodeWatchEvents(stream);
      await closed(stream);
      if (stream.rstCode !== constants.NGHTTP2_NO_ERROR) {
        throw new Error(`watch stream cut off (HTTP/2 code ${stream.rstCode})`);
      }
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    } finally {
      if (stream !== undefined && !stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    }
  }

  /** Sessions and streams currently open. */
  stats(): PoolStats {
    return this.#pool.stats();
  }

  /** Drops every connection; open watches and requests fail, later ones too. */
  close(): void {
    this.#pool.close();
  }

  /** Sends a request and waits for the response headers; resends once what was never processed. */
  async #open(
    method: string,
    path: string,
    body: string | undefined,
    contentType: string,
    signal: AbortSignal | undefined,
    accept = 'application/json',
  ): Promise<Opened> {
    const headers: OutgoingHttpHeaders = {
      ':method': method,
      ':path': path,
      accept,
    };
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = Buffer.byteLength(body);
    }
    if (this.#token !== undefined) {
      headers['authorization'] = `Bearer ${this.#token}`;
      // Kept out of HPACK's tables: the token is never compressed against other headers.
      Reflect.set(headers, sensitiveHeaders, ['authorization']);
    }
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        return await this.#send(headers, body, signal);
      } catch (err) {
        if (!(err instanceof Unprocessed)) throw err;
        if (attempt >= 2 || signal?.aborted === true) throw err.cause;
      }
    }
  }

  async #send(
    headers: OutgoingHttpHeaders,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Opened> {
    let session: PooledSession;
    let stream: ClientHttp2Stream;
    try {
      ({ session, stream } = await this.#pool.open(headers, {
        endStream: body === undefined,
        ...(signal !== undefined ? { signal } : {}),
      }));
    } catch (err) {
      // No session could take the stream (connecting failed, or it closed meanwhile): nothing
      // was sent.
      throw new Unprocessed(err);
    }
    // Later errors surface through the body or event iteration, which sees the stream errored.
    stream.on('error', () => undefined);
    if (body !== undefined) stream.end(body);
    return new Promise<Opened>((resolve, reject) => {
      const settle = (): void => {
        stream.off('response', onResponse);
        stream.off('error', onError);
        stream.off('close', onClose);
      };
      const fail = (err: Error): void => {
        settle();
        reject(signal?.aborted !== true && session.unprocessed(stream) ? new Unprocessed(err) : err);
      };
      const onResponse = (h: { readonly ':status'?: number }): void => {
        settle();
        resolve({ status: h[':status'] ?? 0, stream });
      };
      const onError = (err: Error): void => fail(err);
      const onClose = (): void =>
        fail(new Error(`HTTP/2 stream closed before a response (code ${stream.rstCode})`));
      stream.once('response', onResponse);
      stream.once('error', onError);
      stream.once('close', onClose);
    });
  }
}
