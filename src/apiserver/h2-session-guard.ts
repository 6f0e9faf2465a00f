/**
 * One HTTP/2 session's bounds, as Go's http2 server keeps them for kube-apiserver:
 *
 * - handlers: at most `maxStreams` requests of the session are served at once; more wait, up to
 *   4 × `maxStreams` of them. The stream limit alone does not bound them: a client that resets
 *   each stream right after opening it (CVE-2023-44487, "rapid reset") frees its stream at once
 *   while the request it started is still being served. A session with more waiting than that
 *   gets GOAWAY ENHANCE_YOUR_CALM and is closed (golang.org/x/net's fix, in kube-apiserver
 *   v1.27.7). nghttp2's own reset rate limit (a burst of 1,000, then 33 a second) ends such a
 *   session with GOAWAY INTERNAL_ERROR too, whichever comes first.
 * - the preface: a client that does not send its SETTINGS within `prefaceTimeoutMs` is cut off.
 * - idleness: a session without open streams for `idleTimeoutMs` gets GOAWAY NO_ERROR and is
 *   closed, whatever else it sends (pings, a header block that never ends).
 */
import { constants } from 'node:http2';
import type { ServerHttp2Session, ServerHttp2Stream } from 'node:http2';
import { queuedHandlersPerStream } from './serving-options.js';

export interface SessionGuardOptions {
  readonly maxStreams: number;
  readonly idleTimeoutMs: number;
  readonly prefaceTimeoutMs: number;
}

interface Waiting {
  readonly start: () => Promise<void>;
  /** The client is gone (its stream closed while waiting): nothing to serve. */
  readonly gone: () => boolean;
}

/** After a polite GOAWAY, a session still open this long is destroyed (Go's goAwayTimeout). */
const goAwayGraceMs = 1000;

export class Http2SessionGuard {
  readonly #session: ServerHttp2Session;
  readonly #o: SessionGuardOptions;
  #running = 0;
  readonly #waiting: Waiting[] = [];
  #openStreams = 0;
  #idle: NodeJS.Timeout | undefined;
  #preface: NodeJS.Timeout | undefined;
  #ended = false;

  constructor(session: ServerHttp2Session, o: SessionGuardOptions) {
    this.#session = session;
    this.#o = o;
    this.#preface = setTimeout(() => this.#destroy(), o.prefaceTimeoutMs);
    this.#preface.unref();
    session.once('remoteSettings', () => clearTimeout(this.#preface));
    session.on('stream', (stream: ServerHttp2Stream) => this.#onStream(stream));
    session.once('close', () => this.#end());
    this.#armIdle();
  }

  /** Serves a request of this session now, or once fewer than `maxStreams` are being served. */
  admit(start: () => Promise<void>, gone: () => boolean): void {
    if (this.#ended) return;
    if (this.#running < this.#o.maxStreams) {
      this.#run(start);
      return;
    }
    if (this.#waiting.length >= queuedHandlersPerStream * this.#o.maxStreams) {
      this.#goAway(constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return;
    }
    this.#waiting.push({ start, gone });
  }

  #run(start: () => Promise<void>): void {
    this.#running++;
    const done = (): void => {
      this.#running--;
      this.#next();
    };
    start().then(done, done);
  }

  #next(): void {
    while (this.#running < this.#o.maxStreams && !this.#ended) {
      const w = this.#waiting.shift();
      if (w === undefined) return;
      if (!w.gone()) this.#run(w.start);
    }
  }

  #onStream(stream: ServerHttp2Stream): void {
    this.#openStreams++;
    clearTimeout(this.#idle);
    stream.once('close', () => {
      if (--this.#openStreams === 0) this.#armIdle();
    });
  }

  #armIdle(): void {
    if (this.#ended) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#closeIdle(), this.#o.idleTimeoutMs);
    this.#idle.unref();
  }

  #closeIdle(): void {
    this.#goAway(constants.NGHTTP2_NO_ERROR);
    if (!this.#session.destroyed) this.#session.close();
  }

  /**
   * GOAWAY now, the connection closed a moment later: closing at once, with the client's frames
   * unread, would reset the connection and lose the GOAWAY on its way (Go waits a second too).
   * Nothing more of the session is served meanwhile.
   */
  #goAway(code: number): void {
    const session = this.#session;
    if (this.#ended || session.destroyed) return;
    this.#end();
    session.goaway(code);
    setTimeout(() => this.#destroy(), goAwayGraceMs).unref();
  }

  #destroy(): void {
    this.#end();
    if (!this.#session.destroyed) this.#session.destroy();
  }

  #end(): void {
    this.#ended = true;
    clearTimeout(this.#idle);
    clearTimeout(this.#preface);
    this.#waiting.length = 0;
  }
}
