/**
 * An HTTP exchange with a server in a simulated container, as the API server's proxies
 * (pods/proxy, services/proxy) and the simulated cluster network carry it: the shared shape of
 * the registry (which proxies) and the nodes (which answer).
 */
import type { Duplex } from 'node:stream';

export interface SimHttpRequest {
  readonly method: string;
  /** The path as sent (escaped), always starting with `/`. */
  readonly path: string;
  /** The query without `?` ('' when none). */
  readonly rawQuery: string;
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Whether it came over TLS (`https` in a proxy's location). */
  readonly tls: boolean;
}

export interface SimHttpResponse {
  readonly status: number;
  /** Header values by canonical name (`Content-Type`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The server answers this long after the request came (ms; Infinity: never), as agnhost
   * webhook's `/always-allow-delay-5s` sleeps. Undefined: at once.
   */
  readonly delayMs?: number;
}

/** What an HTTP request to a port of a simulated pod came to. */
export type PodHttpOutcome =
  | { readonly kind: 'answer'; readonly response: SimHttpResponse }
  /** The connection failed; `error` is Go's words for it (`dial tcp 10.244.1.5:81: connect: connection refused`). */
  | { readonly kind: 'failed'; readonly error: string }
  /** The simulator cannot know what the server answers; the reason says why. */
  | { readonly kind: 'unknowable'; readonly reason: string };

/**
 * A connection to an address and TCP port that a simulated pod of this process has, as the API
 * server dials a webhook there: `open` is the client's end of an in-memory byte stream on which
 * the pod's server speaks (TLS first where it serves TLS); `refused` when nothing listens;
 * `failed` when the simulator cannot know what listens (the reason says why).
 */
export type SimConnection =
  | { readonly kind: 'open'; readonly socket: Duplex }
  | { readonly kind: 'refused' }
  | { readonly kind: 'failed'; readonly reason: string };

/** Dials `host:port` among the simulated pods of this process; undefined when none has the address. */
export type SimDial = (host: string, port: number) => SimConnection | undefined;
