/**
 * The front door's connection bounds, with kube-apiserver v1.27's values as defaults
 * (k8s.io/apiserver/pkg/server/secure_serving.go, v0.27.7 and later, and Go's net/http and
 * golang.org/x/net/http2 servers it configures). Tests shorten the timeouts.
 */
import type { TlsServingOptions } from './tls-options.js';

export interface ServingOptions {
  /**
   * `--http2-max-streams-per-connection`: the SETTINGS_MAX_CONCURRENT_STREAMS advertised to
   * clients and the number of handlers one session runs at once; 0 or absent: 100 (upstream's
   * default since v1.27.7; earlier v1.27 releases used 250).
   */
  readonly http2MaxStreamsPerConnection?: number;
  /**
   * ReadHeaderTimeout (32 s): an HTTP/1.1 request's headers, and the TLS handshake before them,
   * must arrive within it or the connection is closed.
   */
  readonly headerTimeoutMs?: number;
  /**
   * IdleTimeout (90 s): an HTTP/1.1 keep-alive connection between requests, and an HTTP/2 session
   * without open streams, are closed after it.
   */
  readonly idleTimeoutMs?: number;
  /** Go's http2 prefaceTimeout (10 s): an HTTP/2 client must send its preface within it. */
  readonly prefaceTimeoutMs?: number;
  /**
   * MaxHeaderBytes (1 MiB): larger HTTP/1.1 request headers are answered 431; HTTP/2 advertises it
   * (plus Go's allowance of 10 × 32 bytes) as SETTINGS_MAX_HEADER_LIST_SIZE.
   */
  readonly maxHeaderBytes?: number;
  /** `--tls-min-version` and `--tls-cipher-suites`, resolved (default TLS 1.2 and Node's suites). */
  readonly tls?: TlsServingOptions;
}

/** The bounds with every default filled in. */
export interface ResolvedServing {
  readonly maxStreams: number;
  readonly headerTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly prefaceTimeoutMs: number;
  readonly maxHeaderBytes: number;
}

/** kube-apiserver's default maximum request body (3 MiB). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * How long a connection is kept reading and dropping input nobody will read (a body left unread by
 * an early answer, the rest of a refused request) before it is closed. Go reads up to 256 KiB of
 * an unread body, and lingers 500 ms (`rstAvoidanceDelay`) after a 431 so that closing does not
 * reset the answer away.
 */
export const unreadInputDrainMs = 500;

/** Go's http2 server: 4 × the stream limit of handlers may wait behind the running ones. */
export const queuedHandlersPerStream = 4;

/**
 * Upstream's MaxReadFrameSize (resourceBody99Percentile: at least 99% of serialized resources fit
 * in one frame): the largest HTTP/2 frame a client may send.
 */
export const maxReadFrameBytes = 256 * 1024;

/** Go's http2 maxHeaderListSize: MaxHeaderBytes plus 10 typical headers' 32-byte overhead. */
export const headerListOverheadBytes = 10 * 32;

export function resolveServing(o: ServingOptions = {}): ResolvedServing {
  const streams = o.http2MaxStreamsPerConnection ?? 0;
  return {
    maxStreams: streams > 0 ? streams : 100,
    headerTimeoutMs: o.headerTimeoutMs ?? 32_000,
    idleTimeoutMs: o.idleTimeoutMs ?? 90_000,
    prefaceTimeoutMs: o.prefaceTimeoutMs ?? 10_000,
    maxHeaderBytes: o.maxHeaderBytes ?? 1024 * 1024,
  };
}
