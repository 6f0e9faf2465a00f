/**
 * How a RestClient's requests reach an API server: HTTP/2 over TLS (http2-transport.ts) or, for
 * components running inside `nanokube serve`, straight into the server's request chain (same
 * filters, authorization, admission and encodings; no TLS, no HTTP framing).
 */
import type { PoolStats } from './session-pool.js';

export interface TransportRequest {
  readonly method: string;
  /** Path and query, e.g. `/api/v1/pods?watch=1`. */
  readonly path: string;
  /** Lower-case header names (`accept`, `content-type`, `authorization`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborting before the response headers fails the request; after, it cancels the response. */
  readonly signal?: AbortSignal;
}

export interface TransportResponse {
  readonly status: number;
  /**
   * The body's bytes. Ends with the response; throws when the response was cut off before its
   * end. Leaving the loop early cancels the response.
   */
  readonly body: AsyncIterable<Uint8Array>;
  /** Stops the response (the server sees the client go away). */
  cancel(): void;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Connections and streams open (an in-process transport has no sessions). */
  stats(): PoolStats;
  /** Ends every open response; later requests fail. */
  close(): void;
}
