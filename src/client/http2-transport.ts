/**
 * The network transport: every request and watch is a stream over a few shared HTTP/2 sessions
 * (see SessionPool). A request the server certainly never processed (its session went away before
 * the stream was taken) is sent once more.
 */
import { constants, sensitiveHeaders } from 'node:http2';
import type { ClientHttp2Stream, OutgoingHttpHeaders } from 'node:http2';
import { SessionPool } from './session-pool.js';
import type { PooledSession, PoolStats, SessionPoolOptions } from './session-pool.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** A request the server certainly did not process (see PooledSession.unprocessed): safe to resend. */
class Unprocessed extends Error {
  override readonly name = 'Unprocessed';
  constructor(cause: unknown) {
    super('request not processed by the server', { cause });
  }
}

function closed(stream: ClientHttp2Stream): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((r) => stream.once('close', () => r()));
}

/** The stream's bytes; throws when it was reset before its end; leaving early cancels it. */
async function* bodyOf(stream: ClientHttp2Stream): AsyncGenerator<Uint8Array> {
  try {
    for await (const c of stream as AsyncIterable<unknown>) if (c instanceof Uint8Array) yield c;
    await closed(stream);
    if (stream.rstCode !== constants.NGHTTP2_NO_ERROR) {
      throw new Error(`HTTP/2 stream reset before the end of the response (code ${stream.rstCode})`);
    }
  } finally {
    if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
  }
}

export class Http2Transport implements Transport {
  readonly #pool: SessionPool;

  constructor(o: SessionPoolOptions) {
    this.#pool = new SessionPool(o);
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const headers: OutgoingHttpHeaders = { ':method': request.method, ':path': request.path };
    for (const [name, value] of Object.entries(request.headers)) headers[name] = value;
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    if (request.headers['authorization'] !== undefined) {
      // Kept out of HPACK's tables: the token is never compressed against other headers.
      Reflect.set(headers, sensitiveHeaders, ['authorization']);
    }
    const { signal } = request;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const { status, stream } = await this.#send(headers, request.body, signal);
        return {
          status,
          body: bodyOf(stream),
          cancel: () => {
            if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
          },
        };
      } catch (err) {
        if (!(err instanceof Unprocessed)) throw err;
        if (attempt >= 2 || signal?.aborted === true) throw err.cause;
      }
    }
  }

  stats(): PoolStats {
    return this.#pool.stats();
  }

  close(): void {
    this.#pool.close();
  }

  async #send(
    headers: OutgoingHttpHeaders,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly status: number; readonly stream: ClientHttp2Stream }> {
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
    return new Promise((resolve, reject) => {
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
