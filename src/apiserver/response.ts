/** Writing responses: JSON/YAML/protobuf objects, Status errors and Warning headers. */
import { constants as http2constants } from 'node:http2';
import { stringify as yamlStringify } from 'yaml';
import { builtinProtobuf } from '../apis/protobuf.js';
import { apiErrors, StatusError } from '../machinery/errors.js';
import { protobufMediaType } from '../machinery/protobuf/serializer.js';
import type { Status } from '../machinery/status.js';
import { isJsonObject } from '../util/json.js';
import { auditResponseObject } from './audit/recorder.js';
import { isPrettyPrint, negotiateError } from './negotiate.js';
import { endWhole } from './response-compression.js';
import type { Format, PrettyRequest } from './negotiate.js';

/** What handlers use of a response; both http.ServerResponse and http2's compat response fit. */
export interface ServerResponseLike {
  readonly headersSent: boolean;
  readonly statusCode?: number | undefined;
  writeHead(code: number, headers?: Record<string, string | string[]>): unknown;
  setHeader(name: string, value: string | string[]): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
  flushHeaders?(): void;
}

/**
 * Resets a response's stream (HTTP/2 RST_STREAM CANCEL; HTTP/1.1: the connection) without waiting
 * for buffered data to reach a client that is not reading.
 */
export function cancelResponse(res: ServerResponseLike): void {
  if ('stream' in res) {
    const stream: unknown = res.stream;
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
  if ('destroy' in res && typeof res.destroy === 'function') {
    (res.destroy as () => void).call(res);
    return;
  }
  res.end();
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The warning texts' total length (in code points) past which each is cut to `itemRunes`. */
const totalRunes = 4 * 1024;
const itemRunes = 256;

/**
 * One `Warning` header value as net.NewWarningHeader makes it: the text quoted, escaping only `"`
 * and `\`, refused (undefined) with control characters or invalid UTF-8 (here: a lone
 * surrogate). Go writes the value's UTF-8 bytes as they are; Node takes a header value as one
 * character per byte, so the bytes are handed over that way (a character past U+00FF would make
 * Node refuse the whole answer).
 */
function warningHeader(text: string): string | undefined {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text) || loneSurrogate.test(text)) return undefined;
  const quoted = `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(`299 - ${quoted}`, 'utf8').toString('latin1');
}

function cut(text: string): { readonly text: string; readonly runes: number } {
  const runes = Array.from(text);
  return runes.length > itemRunes
    ? { text: runes.slice(0, itemRunes).join(''), runes: itemRunes }
    : { text, runes: runes.length };
}

/**
 * `Warning: 299 - "text"` headers, as kube-apiserver's warning recorder adds them: deduplicated,
 * in order, and once the texts pass 4096 code points in all, every text (those already added
 * too) cut to its first 256 and no more added past 4096 again, so many warnings cannot make an
 * answer's head larger than clients read.
 */
export function warningHeaders(warnings: readonly string[]): string[] {
  const seen = new Set<string>();
  const ordered: string[] = [];
  let out: string[] = [];
  let written = 0;
  let truncating = false;
  for (const w of warnings) {
    if (truncating && written >= totalRunes) break;
    if (w === '' || seen.has(w)) continue;
    seen.add(w);
    ordered.push(w);
    const item = truncating ? cut(w) : { text: w, runes: Array.from(w).length };
    const header = warningHeader(item.text);
    if (header === undefined) continue;
    if (truncating || written + item.runes <= totalRunes) {
      written += item.runes;
      out.push(header);
      continue;
    }
    truncating = true;
    written = 0;
    out = [];
    for (const earlier of ordered) {
      const c = cut(earlier);
      const h = warningHeader(c.text);
      if (h === undefined) continue;
      written += c.runes;
      out.push(h);
    }
  }
  return out;
}

/** The request a response answers (Node's http and http2 compat responses keep it as `req`). */
export function requestOf(res: ServerResponseLike): PrettyRequest | undefined {
  if (!('req' in res)) return undefined;
  const req: unknown = res.req;
  if (typeof req !== 'object' || req === null || !('headers' in req)) return undefined;
  return req as PrettyRequest;
}

/**
 * JSON as apimachinery's serializer writes it: json.MarshalIndent with two spaces and no newline
 * when pretty-printing, else json.Encoder.Encode (one line ending in a newline). Without a word
 * from the caller, the request the response keeps decides.
 */
function encodeJson(res: ServerResponseLike, body: unknown, pretty: boolean | undefined): string {
  const req = pretty === undefined ? requestOf(res) : undefined;
  if (pretty ?? (req !== undefined && isPrettyPrint(req))) return JSON.stringify(body, null, 2);
  return `${JSON.stringify(body)}\n`;
}

/**
 * Upstream's responsewriters.WriteRawJSON (`/version`, the root paths): always json.MarshalIndent
 * with two spaces, no trailing newline.
 */
export function writeRawJSON(res: ServerResponseLike, code: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(code, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

const contentTypes: Readonly<Record<Format, string>> = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: protobufMediaType,
};

/** Warnings that belong to the whole request (a deprecated version), sent with its answer. */
const requestWarnings = new WeakMap<object, readonly string[]>();

/** Adds warnings every answer to this response carries (upstream's warning.AddWarning on the context). */
export function addRequestWarnings(res: ServerResponseLike, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  requestWarnings.set(res, [...(requestWarnings.get(res) ?? []), ...warnings]);
}

export function writeObject(
  res: ServerResponseLike,
  code: number,
  body: unknown,
  options: {
    readonly format?: Format;
    readonly warnings?: readonly string[];
    /** JSON indented (negotiate.ts isPrettyPrint); by default the response's request decides. */
    readonly pretty?: boolean;
  } = {},
): void {
  const format = options.format ?? 'json';
  auditResponseObject(res, body);
  const text =
    format === 'protobuf'
      ? builtinProtobuf.encode(isJsonObject(body) ? body : {})
      : format === 'yaml'
        ? yamlStringify(body)
        : encodeJson(res, body, options.pretty);
  const headers: Record<string, string | string[]> = {
    'content-type': contentTypes[format],
    'cache-control': 'no-cache, private',
  };
  const warnings = warningHeaders([...(requestWarnings.get(res) ?? []), ...(options.warnings ?? [])]);
  if (warnings.length > 0) headers['warning'] = warnings;
  endWhole(res, requestOf(res), code, headers, text);
}

export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  return apiErrors.internal(err);
}

export function writeError(res: ServerResponseLike, err: unknown, warnings: readonly string[] = []): void {
  const e = toStatusError(err);
  if (res.headersSent) {
    res.end();
    return;
  }
  const status: Status = e.status;
  const headers: Record<string, string | string[]> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined) headers['retry-after'] = String(retry);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  const accept = requestOf(res)?.headers['accept'];
  const format = negotiateError(typeof accept === 'string' ? accept : undefined);
  writeObject(res, status.code, status, { warnings, format });
}

export function successStatus(details: Record<string, string>): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
