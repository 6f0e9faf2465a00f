/**
 * Response compression as kube-apiserver v1.27 does it (APIResponseCompression, beta, on by
 * default; upstream's deferredResponseWriter): an API object answer (resources, lists, Status
 * errors, discovery) whose serialized form is over 128 KiB goes out gzipped, at level 1, when the
 * request's Accept-Encoding names `gzip` (Go's transport asks for it on every request unless told
 * not to, so kubectl and client-go get it). Such an answer carries `Content-Encoding: gzip`,
 * `Vary: Accept-Encoding` and no Content-Length. Smaller answers, watches, logs, exec streams,
 * /metrics, /version and the OpenAPI documents are never compressed here, as upstream's
 * SerializeObject is not on their path.
 *
 * The server marks the requests that may be answered compressed ({@link allowGzip}); the writers
 * ask with the request their response answers. The compression itself runs on libuv's thread
 * pool (node:zlib's asynchronous API), not on the thread serving requests.
 */
import { createGzip, gzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';
import { whenDrained } from './when-drained.js';
import type { ServerResponseLike } from './response.js';

/** Upstream's defaultGzipThresholdBytes: answers whose first write is larger are compressed. */
export const gzipThresholdBytes = 128 * 1024;

/** Upstream's defaultGzipContentEncodingLevel: the least CPU for a ratio close to the best. */
const gzipLevel = 1;

/**
 * Upstream's negotiateContentEncoding: `gzip` when a comma-separated token of Accept-Encoding is
 * exactly `gzip` once trimmed (`gzip;q=0.5` is not; neither is `*`).
 */
export function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  const value = Array.isArray(acceptEncoding) ? acceptEncoding[0] : acceptEncoding;
  if (value === undefined || value === '') return false;
  return value.split(',').some((token) => token.trim() === 'gzip');
}

const gzipRequests = new WeakSet<object>();

/** Marks `req` as one whose large API object answers are gzipped (the gate is on, it asked). */
export function allowGzip(req: object): void {
  gzipRequests.add(req);
}

/** Whether answers to `req` over the threshold are gzipped. */
export function gzipAllowed(req: object | undefined): boolean {
  return req !== undefined && gzipRequests.has(req);
}

/** Whether an answer of `bytes` to `req` is to be gzipped. */
export function gzipsAnswer(req: object | undefined, bytes: number): boolean {
  return bytes > gzipThresholdBytes && gzipAllowed(req);
}

/** The headers of a gzipped answer: `headers` less Content-Length, with the encoding and Vary. */
function gzipHeaders(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (name !== 'content-length') out[name] = value;
  out['content-encoding'] = 'gzip';
  const vary = headers['vary'];
  out['vary'] =
    vary === undefined ? 'Accept-Encoding' : [...(Array.isArray(vary) ? vary : [vary]), 'Accept-Encoding'];
  return out;
}

/**
 * Writes a whole answer: gzipped when {@link gzipsAnswer} says so (the head at once, the body once
 * compressed), else as it is with its Content-Length.
 */
export function endWhole(
  res: ServerResponseLike,
  req: object | undefined,
  code: number,
  headers: Record<string, string | string[]>,
  body: string | Uint8Array,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (!gzipsAnswer(req, bytes.byteLength)) {
    res.writeHead(code, { ...headers, 'content-length': String(bytes.byteLength) });
    res.end(bytes);
    return;
  }
  res.writeHead(code, gzipHeaders(headers));
  gzip(bytes, { level: gzipLevel }, (err, out) => {
    // Compressing bytes in memory does not fail; were it to, the client sees a broken answer.
    if (err !== null) res.end();
    else res.end(out);
  });
}

/**
 * A streamed answer's body going through gzip: what is written is compressed on the thread pool
 * and handed to the response as it comes out, the response's backpressure pausing the compressor
 * and the compressor's pausing the writer.
 */
export class GzipBody {
  readonly #gz: Gzip;
  readonly #res: ServerResponseLike;

  /** Writes the head (`headers` made a gzipped answer's) and starts the body. */
  constructor(res: ServerResponseLike, code: number, headers: Record<string, string | string[]>) {
    this.#res = res;
    res.writeHead(code, gzipHeaders(headers));
    const gz = createGzip({ level: gzipLevel });
    this.#gz = gz;
    gz.on('data', (chunk: Buffer) => {
      if (res.write(chunk)) return;
      gz.pause();
      res.once('drain', () => gz.resume());
    });
    gz.once('end', () => res.end());
    // Compressing in memory does not fail; a destroyed compressor (a cut answer) ends nothing.
    gz.on('error', () => undefined);
  }

  /** False when the caller should wait for {@link drained} before writing more. */
  write(chunk: Uint8Array): boolean {
    return this.#gz.write(chunk);
  }

  end(chunk: Uint8Array): void {
    this.#gz.end(chunk);
  }

  /** Resolves true once more may be written; false when the response closed or `signal` aborted. */
  drained(signal: AbortSignal): Promise<boolean> {
    return whenDrained(this.#gz, this.#res, signal);
  }

  /** The answer was cut: the compressor is dropped with what it held. */
  destroy(): void {
    this.#gz.destroy();
  }
}
