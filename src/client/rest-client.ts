/**
 * A small REST client for the Kubernetes API: JSON requests, typed API errors, and watches as
 * async iterables. By default it speaks HTTP/2 over TLS (client-certificate and/or bearer-token
 * credentials), every request and watch a stream over a few shared sessions (see SessionPool), so
 * a process can hold hundreds of watches; `nanokube serve` gives its own components an in-process
 * transport into the same request chain. Controllers reach the cluster only through this, so each
 * can run as a separate process or against a real kube-apiserver.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { ApiError } from './api-error.js';
import type { ClientCredentials } from './credentials.js';
import { Http2Transport } from './http2-transport.js';
import type { PoolStats } from './session-pool.js';
import type { Transport, TransportResponse } from './transport.js';
import { decodeWatchEvents } from './watch-event.js';
import type { WatchEvent } from './watch-event.js';

export { ApiError } from './api-error.js';
export type { ClientCredentials } from './credentials.js';
export type { PoolStats } from './session-pool.js';
export type { Transport } from './transport.js';
export type { WatchEvent, WatchEventType } from './watch-event.js';

export interface Http2ClientOptions extends ClientCredentials {
  /** Streams one HTTP/2 session carries at most (default: 90% of the server's limit). */
  readonly maxStreamsPerSession?: number;
  /** PING interval of sessions with open streams (default 30 s; 0 disables). */
  readonly pingIntervalMs?: number;
  /** A PING unanswered this long drops its session (default 15 s). */
  readonly pingTimeoutMs?: number;
  /** A session without streams for this long is closed (default 90 s). */
  readonly idleTimeoutMs?: number;
}

/** Credentials for HTTP/2 over TLS, or a transport of the caller's (e.g. in-process). */
export type RestClientOptions = Http2ClientOptions | { readonly transport: Transport };

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

/** The whole body as text. */
async function readBody(response: TransportResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of response.body) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

function http2Transport(o: Http2ClientOptions): Transport {
  const url = new URL(o.server);
  if (url.protocol !== 'https:') throw new Error(`server ${o.server}: only https is supported`);
  if ((o.cert === undefined) !== (o.key === undefined)) {
    throw new Error('a client certificate needs its key (cert and key come together)');
  }
  return new Http2Transport({
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

export class RestClient {
  readonly #transport: Transport;
  readonly #token: string | undefined;

  constructor(o: RestClientOptions) {
    if ('transport' in o) {
      this.#transport = o.transport;
      this.#token = undefined;
    } else {
      this.#transport = http2Transport(o);
      this.#token = o.token;
    }
  }

  /** One JSON request; throws ApiError on a non-2xx answer. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<JsonObject> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await this.#send(
      method,
      path,
      body,
      options.contentType ?? 'application/json',
      options.signal,
      options.accept,
    );
    const text = await readBody(response);
    const { status } = response;
    if (status < 200 || status > 299) throw new ApiError(status, text);
    const parsed: unknown = text === '' ? {} : JSON.parse(text);
    if (!isJsonObject(parsed)) throw new ApiError(status, `unexpected response: ${text.slice(0, 200)}`);
    return parsed;
  }

  /**
   * A watch stream (path must carry `watch=1`). Ends when the server ends it, and quietly when
   * `signal` aborts (which cancels the response); throws ApiError when the watch is refused and an
   * Error when the connection is lost mid-stream. Leaving the loop early also cancels it.
   */
  async *watch(path: string, signal: AbortSignal, options: WatchOptions = {}): AsyncGenerator<WatchEvent> {
    let response: TransportResponse | undefined;
    const cancel = (): void => response?.cancel();
    try {
      response = await this.#send('GET', path, undefined, '', signal, options.accept);
      signal.addEventListener('abort', cancel, { once: true });
      if (response.status !== 200) throw new ApiError(response.status, await readBody(response));
      yield* decodeWatchEvents(response.body);
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    } finally {
      signal.removeEventListener('abort', cancel);
      response?.cancel();
    }
  }

  /** Sessions and streams currently open. */
  stats(): PoolStats {
    return this.#transport.stats();
  }

  /** Drops every connection; open watches and requests fail, later ones too. */
  close(): void {
    this.#transport.close();
  }

  #send(
    method: string,
    path: string,
    body: string | undefined,
    contentType: string,
    signal: AbortSignal | undefined,
    accept = 'application/json',
  ): Promise<TransportResponse> {
    const headers: Record<string, string> = { accept };
    if (body !== undefined) headers['content-type'] = contentType;
    if (this.#token !== undefined) headers['authorization'] = `Bearer ${this.#token}`;
    return this.#transport.send({
      method,
      path,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(signal !== undefined ? { signal } : {}),
    });
  }
}
