/**
 * List answers in JSON written item by item: the envelope, then each item serialized on
 * its own, with the socket's backpressure honoured, so a list of 100 MiB never exists as one string
 * or one write buffer. The bytes are the same as `JSON.stringify(list) + '\n'` (what writeObject
 * sends, Go's json.Encoder output); only compact JSON is streamed (pretty-printed, YAML, protobuf
 * and Table answers go through writeObject whole).
 *
 * An answer that fits in `wholeAnswerBytes` is sent whole with a Content-Length, as before. A
 * larger one goes out without Content-Length (HTTP/2 DATA frames until END_STREAM; HTTP/1.1
 * chunked), as kube-apiserver's does: Go's HTTP/2 server only declares a length for a body the
 * handler finished within its first 4 KiB write buffer (HTTP/1.1: 2 KiB), and json.Encoder writes a
 * list at once, so upstream's large lists carry none either. Headers (content-type,
 * cache-control, warning) are otherwise those of writeObject.
 *
 * When the request may be answered gzipped (response-compression.ts), the answer is kept until it
 * outgrows upstream's 128 KiB threshold instead, and from there goes through the compressor; an
 * answer that never does is sent as it is.
 *
 * Once the headers are out an error cannot become a Status: the request's signal aborting (client
 * gone, request deadline passed, server shutting down) or an item failing to serialize cuts the
 * stream (HTTP/2 RST_STREAM CANCEL, HTTP/1.1 the connection), as upstream's timeout filter does
 * with http.ErrAbortHandler, so the client sees a broken response rather than a short list.
 */
import { constants as http2constants } from 'node:http2';
import { whenDrained } from './when-drained.js';
import { GzipBody, gzipAllowed, gzipThresholdBytes } from './response-compression.js';
import { cancelResponse, warningHeaders } from './response.js';
import type { ServerResponseLike } from './response.js';
import type { KubeObject } from '../machinery/object.js';
import type { ItemEncodings } from '../registry/generic/store.js';

/** Answers up to this size are sent whole, with a Content-Length (Go's http2 handler buffer). */
export const wholeAnswerBytes = 4096;

/**
 * The objects a list's items were made from, index for index (the watch cache's own), and the
 * encodings the cache keeps of them: an item whose object has one is not encoded again.
 */
export interface ListSources {
  readonly objects: readonly KubeObject[];
  readonly encodings: ItemEncodings;
}

export interface ListStreamOptions {
  readonly warnings?: readonly string[];
  readonly sources?: ListSources;
  /** Aborts when the answer should stop (the handler context's signal). */
  readonly signal: AbortSignal;
  /** The request: its HTTP/2 stream or socket is what a cut resets when `res` is a wrapper. */
  readonly req?: object;
}

/**
 * Whether `body` can be streamed byte-identically: a plain object whose last key is `items`
 * holding a plain array (a List or PartialObjectMetadataList as representList makes them).
 */
export function isStreamableList(body: unknown): body is Record<string, unknown> & { items: unknown[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  if (Object.getPrototypeOf(body) !== Object.prototype || 'toJSON' in body) return false;
  const keys = Object.keys(body);
  if (keys[keys.length - 1] !== 'items') return false;
  const items: unknown = (body as Record<string, unknown>)['items'];
  return Array.isArray(items) && Object.getPrototypeOf(items) === Array.prototype && !('toJSON' in items);
}

/** The bytes before the first item: the envelope's fields, then `"items":[`. */
function envelopeHead(body: Record<string, unknown>): string {
  const envelope: Record<string, unknown> = {};
  for (const k of Object.keys(body)) if (k !== 'items') envelope[k] = body[k];
  const text = JSON.stringify(envelope);
  return text === '{}' ? '{"items":[' : `${text.slice(0, -1)},"items":[`;
}

/** One array element as JSON.stringify writes it inside an array. */
function itemText(item: unknown): string {
  // Inside an array, what JSON.stringify cannot represent (undefined, functions) is null.
  return JSON.stringify(item) ?? 'null';
}

/** Whether kept encodings are checked against a fresh one on every use (the test suite sets it). */
const verifyKept = process.env['NANOKUBE_VERIFY_ENCODED_ITEMS'] === '1';

/** The text of item `i`: kept by the watch cache when its source object has one, else encoded. */
function itemEncoder(items: readonly unknown[], sources: ListSources | undefined): (i: number) => string {
  if (sources === undefined) return (i) => itemText(items[i]);
  const { objects, encodings } = sources;
  return (i) => {
    const source = objects[i];
    if (source === undefined) return itemText(items[i]);
    const kept = encodings.get(source);
    if (kept === undefined) {
      const text = itemText(items[i]);
      encodings.remember(source, text);
      return text;
    }
    if (verifyKept && kept !== itemText(items[i])) {
      throw new Error(
        `the kept encoding of ${source.metadata.namespace ?? ''}/${source.metadata.name ?? ''} differs from its object's: was a cached object modified?`,
      );
    }
    return kept;
  };
}

const listTail = ']}\n';

/** Where the body's bytes go once the head is out: the response, or the compressor in front of it. */
interface ListBody {
  write(chunk: Uint8Array): boolean;
  end(chunk: Uint8Array): unknown;
}

/**
 * Resets the response's stream: through `res` when it is node's (cancelResponse), else through the
 * request (a filter's wrapper of the response hides the stream; the request keeps it).
 */
function cutStream(res: ServerResponseLike, req: object | undefined): void {
  if ('stream' in res || 'destroy' in res || req === undefined) {
    cancelResponse(res);
    return;
  }
  if ('stream' in req) {
    const stream: unknown = req.stream;
    if (
      typeof stream === 'object' &&
      stream !== null &&
      'close' in stream &&
      typeof stream.close === 'function'
    ) {
      (stream.close as (code: number) => void).call(stream, http2constants.NGHTTP2_CANCEL);
      return;
    }
  }
  if ('socket' in req) {
    const socket: unknown = req.socket;
    if (
      typeof socket === 'object' &&
      socket !== null &&
      'destroy' in socket &&
      typeof socket.destroy === 'function'
    ) {
      (socket.destroy as () => void).call(socket);
      return;
    }
  }
  // In-process requests behind a wrapper: the body ends short, which no client decodes as a list.
  cancelResponse(res);
}

/**
 * Writes `list` (see isStreamableList) as compact JSON ending in a newline, item by item. Resolves
 * when the last byte was handed to the response, or when the answer was cut.
 */
/** What a streamed list hands the response at a time (once past the first whole-answer buffer). */
const chunkBytes = 64 * 1024;

export async function writeJsonListStream(
  res: ServerResponseLike,
  code: number,
  list: Record<string, unknown> & { items: readonly unknown[] },
  options: ListStreamOptions,
): Promise<void> {
  const headers: Record<string, string | string[]> = {
    'content-type': 'application/json',
    'cache-control': 'no-cache, private',
  };
  const warnings = warningHeaders(options.warnings ?? []);
  const { signal } = options;
  const items = list.items;
  if (warnings.length > 0) headers['warning'] = warnings;
  // Gzipped only past the threshold: until the answer outgrows it, it is kept.
  const gzipped = gzipAllowed(options.req);
  const keepBytes = gzipped ? gzipThresholdBytes : wholeAnswerBytes;
  const encode = itemEncoder(items, options.sources);
  // Until the answer outgrows keepBytes it is kept, to be sent whole (with its length when small).
  const head = envelopeHead(list);
  let pending: string[] | undefined = [head];
  let pendingBytes = Buffer.byteLength(head, 'utf8');
  let i = 0;
  let writable = true;
  let out: ListBody = res;
  let gz: GzipBody | undefined;
  const cut = (): void => {
    gz?.destroy();
    cutStream(res, options.req);
  };
  try {
    for (; i < items.length && pending !== undefined; i++) {
      const text = encode(i);
      if (i > 0) pending.push(',');
      pending.push(text);
      pendingBytes += Buffer.byteLength(text, 'utf8') + (i > 0 ? 1 : 0);
      if (pendingBytes > keepBytes) {
        if (gzipped) {
          gz = new GzipBody(res, code, headers);
          out = gz;
        } else {
          res.writeHead(code, headers);
        }
        writable = out.write(Buffer.from(pending.join(''), 'utf8'));
        pending = undefined;
      }
    }
  } catch (err) {
    if (pending !== undefined) throw err; // nothing sent yet: the caller answers with a Status
    cut();
    return;
  }
  if (pending !== undefined) {
    pending.push(listTail);
    const whole = Buffer.from(pending.join(''), 'utf8');
    if (pendingBytes <= wholeAnswerBytes) headers['content-length'] = String(whole.byteLength);
    res.writeHead(code, headers);
    res.end(whole);
    return;
  }
  const wait = (): Promise<boolean> =>
    gz !== undefined ? gz.drained(signal) : whenDrained(res, res, signal);
  // Headers are out: from here on a failure can only cut the stream.
  try {
    if (!writable && !(await wait())) return cut();
    // Items go out in chunks of about chunkBytes (counted in characters): a write per item
    // costs more than the item.
    let batch: string[] = [];
    let batchChars = 0;
    for (; i < items.length; i++) {
      if (signal.aborted) return cut();
      const text = encode(i);
      if (i > 0) batch.push(',');
      batch.push(text);
      batchChars += text.length + 1;
      if (batchChars < chunkBytes) continue;
      const chunk = Buffer.from(batch.join(''), 'utf8');
      batch = [];
      batchChars = 0;
      if (!out.write(chunk) && !(await wait())) return cut();
    }
    if (signal.aborted) return cut();
    batch.push(listTail);
    out.end(Buffer.from(batch.join(''), 'utf8'));
  } catch {
    cut();
  }
}
