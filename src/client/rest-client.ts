/**
 * A small REST client for the Kubernetes API over HTTPS (client-certificate credentials): JSON
 * requests, typed API errors, and watches as async iterables. Controllers reach the cluster only
 * through this, so each can run as a separate process or against a real kube-apiserver.
 */
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';

export interface ClientCredentials {
  /** `https://host:port` */
  readonly server: string;
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** A non-2xx answer; `status` is the Status body when the server sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly reason: string;
  readonly status: JsonObject | undefined;

  constructor(code: number, body: string) {
    let status: JsonObject | undefined;
    try {
      const parsed: unknown = JSON.parse(body);
      if (isJsonObject(parsed)) status = parsed;
    } catch {
      status = undefined;
    }
    const message = typeof status?.['message'] === 'string' ? status['message'] : body.slice(0, 200);
    super(`API error ${code}: ${message}`);
    this.code = code;
    this.reason = typeof status?.['reason'] === 'string' ? status['reason'] : '';
    this.status = status;
  }
}

export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: JsonObject;
}

export class RestClient {
  readonly #url: URL;
  readonly #agent: Agent;

  constructor(credentials: ClientCredentials) {
    this.#url = new URL(credentials.server);
    this.#agent = new Agent({
      keepAlive: true,
      maxSockets: 8,
      ca: credentials.ca,
      cert: credentials.cert,
      key: credentials.key,
    });
  }

  #open(method: string, path: string, body: string | undefined, contentType: string, signal?: AbortSignal) {
    return new Promise<IncomingMessage>((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) {
        headers['content-type'] = contentType;
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const req = request(
        {
          agent: this.#agent,
          host: this.#url.hostname.replace(/^\[|\]$/g, ''),
          port: this.#url.port,
          method,
          path,
          headers,
          ...(signal !== undefined ? { signal } : {}),
        },
        resolve,
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  /** One JSON request; throws ApiError on a non-2xx answer. */
  async request(
    method: string,
    path: string,
    options: { readonly body?: unknown; readonly contentType?: string; readonly signal?: AbortSignal } = {},
  ): Promise<JsonObject> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const res = await this.#open(
      method,
      path,
      body,
      options.contentType ?? 'application/json',
      options.signal,
    );
    const chunks: Buffer[] = [];
    for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8');
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 299) throw new ApiError(code, text);
    const parsed: unknown = text === '' ? {} : JSON.parse(text);
    if (!isJsonObject(parsed)) throw new ApiError(code, `unexpected response: ${text.slice(0, 200)}`);
    return parsed;
  }

  /** A watch stream (path must carry `watch=1`); ends when the server closes it or `signal` aborts. */
  async *watch(path: string, signal: AbortSignal): AsyncGenerator<WatchEvent> {
    const res = await this.#open('GET', path, undefined, '', signal);
    const code = res.statusCode ?? 0;
    if (code !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
      throw new ApiError(code, Buffer.concat(chunks).toString('utf8'));
    }
    let buf = '';
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        buf += chunk.toString('utf8');
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim() === '') continue;
          const parsed: unknown = JSON.parse(line);
          if (isJsonObject(parsed) && typeof parsed['type'] === 'string' && isJsonObject(parsed['object'])) {
            yield { type: parsed['type'] as WatchEvent['type'], object: parsed['object'] };
          }
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
  }

  close(): void {
    this.#agent.destroy();
  }
}
