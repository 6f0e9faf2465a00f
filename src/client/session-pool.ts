/**
 * HTTP/2 sessions to one API server, shared by every request and watch of a client: many streams
 * over one TLS connection, another connection opened when a session's concurrent streams approach
 * the server's limit (so long-running watches never starve requests), sessions that close or get
 * GOAWAY replaced on the next request, silent connection loss caught by PING, and idle sessions
 * closed.
 */
import { connect, constants } from 'node:http2';
import type {
  ClientHttp2Session,
  ClientHttp2Stream,
  ClientSessionRequestOptions,
  OutgoingHttpHeaders,
  Settings,
} from 'node:http2';

export interface SessionPoolOptions {
  /** `https://host:port` */
  readonly origin: string;
  /** PEM bundle the server's certificate is checked against. */
  readonly ca: string;
  /** PEM client certificate and key, presented in the TLS handshake. */
  readonly cert?: string;
  readonly key?: string;
  /**
   * Streams one session carries at most, below the server's own limit (default: no cap of its
   * own; a session is considered full at 90% of the server's SETTINGS_MAX_CONCURRENT_STREAMS).
   */
  readonly maxStreamsPerSession?: number;
  /** How often a session with open streams is PINGed (default 30 s; 0 disables). */
  readonly pingIntervalMs?: number;
  /** A PING unanswered this long destroys its session (default 15 s). */
  readonly pingTimeoutMs?: number;
  /** A session without streams for this long is closed (default 90 s). */
  readonly idleTimeoutMs?: number;
  /** A connection not ready (TLS and the server's SETTINGS) in this long fails (default 30 s). */
  readonly connectTimeoutMs?: number;
}

export interface PoolStats {
  /** Sessions open or connecting. */
  readonly sessions: number;
  /** Streams open over them. */
  readonly streams: number;
}

/** RFC 9113 asks servers to allow at least 100; assumed until the server's SETTINGS arrive. */
const assumedServerLimit = 100;
/** Per-stream receive window: a watch nobody reads holds at most this much of the session's. */
const streamWindow = 256 * 1024;
/** Session receive window: room for every stream's window, so one stalled watch blocks no other. */
const sessionWindow = 64 * 1024 * 1024;

/** One HTTP/2 session of the pool and the streams it carries. */
export class PooledSession {
  /**
   * Settles when the server's first SETTINGS arrive (undefined: the session is usable and its
   * stream limit known) or when the session closes before that (the reason).
   */
  readonly ready: Promise<Error | undefined>;
  readonly #session: ClientHttp2Session;
  readonly #o: SessionPoolOptions;
  #streams = 0;
  #serverLimit: number | undefined;
  /** From GOAWAY: the server processed no stream above this id. */
  #goawayLastStreamId: number | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined;
  #pinging = false;
  #settled = false;

  constructor(o: SessionPoolOptions, onClose: (s: PooledSession) => void) {
    this.#o = o;
    this.#session = connect(o.origin, {
      ca: o.ca,
      ...(o.cert !== undefined ? { cert: o.cert } : {}),
      ...(o.key !== undefined ? { key: o.key } : {}),
      settings: { enablePush: false, initialWindowSize: streamWindow },
    });
    const session = this.#session;
    let settle: (err: Error | undefined) => void = () => undefined;
    this.ready = new Promise((resolve) => {
      settle = resolve;
    });
    const connectTimeoutMs = o.connectTimeoutMs ?? 30_000;
    const connectTimer = setTimeout(
      () => session.destroy(new Error(`${o.origin}: not connected after ${connectTimeoutMs} ms`)),
      connectTimeoutMs,
    );
    connectTimer.unref();
    let lastError: Error | undefined;
    // Errors reach the streams (and through them the callers); the session's own is only noted.
    session.on('error', (err: Error) => {
      lastError = err;
    });
    session.once('connect', () => session.setLocalWindowSize(sessionWindow));
    session.on('remoteSettings', (s: Settings) => {
      if (s.maxConcurrentStreams !== undefined) this.#serverLimit = s.maxConcurrentStreams;
      clearTimeout(connectTimer);
      this.#settled = true;
      settle(undefined);
    });
    session.on('goaway', (_code: number, lastStreamId: number) => {
      this.#goawayLastStreamId = lastStreamId;
    });
    session.once('close', () => {
      clearTimeout(connectTimer);
      clearTimeout(this.#idleTimer);
      clearInterval(this.#pingTimer);
      settle(lastError ?? new Error(`${o.origin}: the HTTP/2 session closed`));
      onClose(this);
    });
    const every = o.pingIntervalMs ?? 30_000;
    if (every > 0) {
      this.#pingTimer = setInterval(() => this.#ping(), every);
      this.#pingTimer.unref();
    }
  }

  /** Streams open over it. */
  get streams(): number {
    return this.#streams;
  }

  /** Whether the server's SETTINGS have arrived (the session's stream limit is known). */
  get settled(): boolean {
    return this.#settled;
  }

  /** Destroyed: it carries no stream any more, even if its socket has yet to close. */
  get destroyed(): boolean {
    return this.#session.destroyed;
  }

  /** Open and not told to go away. */
  usable(): boolean {
    const s = this.#session;
    return !s.closed && !s.destroyed && this.#goawayLastStreamId === undefined;
  }

  /** Usable, and below its stream limit. */
  hasRoom(): boolean {
    if (!this.usable()) return false;
    const server = this.#serverLimit ?? assumedServerLimit;
    const limit = Math.min(server - Math.ceil(server / 10), this.#o.maxStreamsPerSession ?? Infinity);
    return this.#streams < Math.max(1, limit);
  }

  /** Opens a stream; throws when the session can no longer take one. */
  request(headers: OutgoingHttpHeaders, options: ClientSessionRequestOptions): ClientHttp2Stream {
    const stream = this.#session.request(headers, options);
    this.#streams++;
    clearTimeout(this.#idleTimer);
    this.#session.ref();
    stream.once('close', () => {
      if (--this.#streams > 0) return;
      this.#session.unref();
      if (this.#session.closed || this.#session.destroyed) return;
      this.#idleTimer = setTimeout(() => this.#session.close(), this.#o.idleTimeoutMs ?? 90_000);
      this.#idleTimer.unref();
    });
    return stream;
  }

  /**
   * Whether the server certainly did not process `stream`, so sending the request again is safe:
   * it never got an id (the session died connecting), the server refused it, or it was above
   * the last stream id of the server's GOAWAY.
   */
  unprocessed(stream: ClientHttp2Stream): boolean {
    if (stream.id === undefined) return true;
    if (stream.rstCode === constants.NGHTTP2_REFUSED_STREAM) return true;
    return this.#goawayLastStreamId !== undefined && stream.id > this.#goawayLastStreamId;
  }

  destroy(): void {
    this.#session.destroy();
  }

  #ping(): void {
    const s = this.#session;
    if (this.#pinging || this.#streams === 0 || s.connecting || s.closed || s.destroyed) return;
    const timeoutMs = this.#o.pingTimeoutMs ?? 15_000;
    const deadline = setTimeout(
      () => s.destroy(new Error(`HTTP/2 PING unanswered for ${timeoutMs} ms`)),
      timeoutMs,
    );
    deadline.unref();
    this.#pinging = true;
    const sent = s.ping(() => {
      clearTimeout(deadline);
      this.#pinging = false;
    });
    if (!sent) {
      clearTimeout(deadline);
      this.#pinging = false;
    }
  }
}

/** Sessions a stream may wait for (each ready, then full or gone at once) before giving up. */
const maxRounds = 16;

export class SessionPool {
  readonly #o: SessionPoolOptions;
  readonly #sessions = new Set<PooledSession>();
  #closed = false;

  constructor(o: SessionPoolOptions) {
    this.#o = o;
  }

  /**
   * Opens a stream on a ready session with room, waiting for a connecting session's SETTINGS
   * (so its stream limit is known before it is filled) or connecting a new session when none
   * has room. Throws when no session could be had: nothing was sent then.
   */
  async open(
    headers: OutgoingHttpHeaders,
    options: ClientSessionRequestOptions,
  ): Promise<{ readonly session: PooledSession; readonly stream: ClientHttp2Stream }> {
    for (let round = 1; round <= maxRounds; round++) {
      if (this.#closed) throw new Error('the client is closed');
      options.signal?.throwIfAborted();
      let connecting: PooledSession | undefined;
      for (const s of this.#sessions) {
        // Destroyed sessions can linger until the server closes the socket: forget them now.
        if (s.destroyed) this.#sessions.delete(s);
        else if (!s.settled) {
          if (s.usable()) connecting ??= s;
        } else if (s.hasRoom()) {
          return { session: s, stream: s.request(headers, options) };
        }
      }
      if (connecting === undefined) {
        connecting = new PooledSession(this.#o, (gone) => this.#sessions.delete(gone));
        this.#sessions.add(connecting);
      }
      const err = await untilAborted(connecting.ready, options.signal);
      if (err !== undefined) throw err;
    }
    throw new Error(`${this.#o.origin}: no HTTP/2 session took the stream`);
  }

  stats(): PoolStats {
    let sessions = 0;
    let streams = 0;
    for (const s of this.#sessions) {
      if (s.destroyed) continue;
      sessions++;
      streams += s.streams;
    }
    return { sessions, streams };
  }

  /** Destroys every session (open streams end with an error); later requests fail. */
  close(): void {
    this.#closed = true;
    for (const s of this.#sessions) s.destroy();
    this.#sessions.clear();
  }
}

/** `p`, or undefined as soon as `signal` aborts (the caller checks the signal). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then((v) => {
      signal.removeEventListener('abort', onAbort);
      resolve(v);
    });
  });
}
