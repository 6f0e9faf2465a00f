/**
 * Reading request bodies: a size limit (413 past 3 MiB) and JSON, YAML or protobuf decoding into
 * `unknown` (protobuf bodies become the JSON Go would write for the decoded object).
 */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { parseDocument } from 'yaml';
import { builtinProtobuf } from '../apis/protobuf.js';
import { ProtobufDecodeError } from '../machinery/protobuf/codec.js';
import { protobufMediaType } from '../machinery/protobuf/serializer.js';
import { apiErrors } from '../machinery/errors.js';
import type { StatusError } from '../machinery/errors.js';
import { goJsonSyntaxError } from '../machinery/gojson/syntax.js';
import { exceedsJsonDepth, maxJsonDepth } from './json-depth.js';
import type { InProcessServerRequest } from './in-process.js';
import type { ForwardedRequest } from './net-thread/forwarded-request.js';
import { bodyMediaType } from './negotiate.js';
import { invalidMapKey } from './yaml-keys.js';
import { maxRequestBodyBytes } from './serving-options.js';

export { maxRequestBodyBytes } from './serving-options.js';

export type ServerRequest = IncomingMessage | Http2ServerRequest | InProcessServerRequest | ForwardedRequest;

export async function readBody(req: ServerRequest, limit = maxRequestBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    throw apiErrors.requestEntityTooLarge(`limit is ${limit}`);
  }
  // An in-process request hands its body over whole (its stream is for code that reads streams).
  if ('wholeBody' in req) return req.wholeBody ?? Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) throw apiErrors.requestEntityTooLarge(`limit is ${limit}`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface DecodedBody {
  readonly value: unknown;
  /** The JSON text (for duplicate-field detection); for YAML bodies the re-serialized JSON. */
  readonly raw: string;
  /** The request body as sent (upstream summarizes it in "the object provided is unrecognized"). */
  readonly bytes?: Uint8Array;
}

/**
 * Go encoding/json's message for a body JSON.parse refused (or that nests deeper than we decode):
 * the first syntax error as Go's scanner finds it, V8's text only if Go would have accepted it.
 */
export function goJsonErrorText(bytes: Uint8Array, err?: unknown): string {
  const found = goJsonSyntaxError(bytes, maxJsonDepth);
  if (found !== undefined) return found.message;
  return err instanceof Error ? err.message : String(err);
}

/** Upstream's `summarizeData(body, 30)`: an object's first 30 bytes as text, anything else in hex. */
export function summarizeBody(bytes: Uint8Array, max = 30): string {
  if (bytes.length === 0) return '<empty>';
  const head = Buffer.from(bytes.subarray(0, max));
  const more = bytes.length > max ? ' ...' : '';
  return (bytes[0] === 0x7b ? head.toString('utf8') : head.toString('hex')) + more;
}

/**
 * Upstream's `transformDecodeError` when the body's kind could not be read: `the object provided
 * is unrecognized (must be of type <Kind>): <error> (<summary>)`.
 */
export function unrecognizedBody(kind: string, message: string, bytes: Uint8Array): StatusError {
  return apiErrors.badRequest(
    `the object provided is unrecognized (must be of type ${kind}): ${message} (${summarizeBody(bytes)})`,
  );
}

const accepted = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** The type an endpoint decodes a body into; a protobuf envelope without one takes it from here. */
export interface BodyKind {
  readonly apiVersion: string;
  readonly kind: string;
}

/**
 * Reads a JSON, YAML or protobuf body. `into` names the kind the body must decode into (create,
 * update): its syntax errors then read as upstream's typed decoders word them; without it
 * (DeleteOptions) the decoder's own message is the Status message, as upstream's.
 */
export function decodeBody(
  contentType: string | undefined,
  bytes: Buffer,
  into?: string | BodyKind,
): DecodedBody {
  const media = bodyMediaType(contentType);
  const intoKind = typeof into === 'string' ? into : into?.kind;
  const fail = (message: string): StatusError =>
    intoKind === undefined ? apiErrors.badRequest(message) : unrecognizedBody(intoKind, message, bytes);
  if (media === protobufMediaType) {
    try {
      const { object } = builtinProtobuf.decode(bytes, typeof into === 'object' ? into : undefined);
      return { value: object, raw: JSON.stringify(object), bytes };
    } catch (err) {
      if (!(err instanceof ProtobufDecodeError)) throw err;
      // Upstream's transformDecodeError: with the body's type known, it is named.
      const t = err.bodyType;
      if (t !== undefined && intoKind !== undefined) {
        const version = t.apiVersion.slice(t.apiVersion.indexOf('/') + 1);
        throw apiErrors.badRequest(
          `${t.kind} in version "${version}" cannot be handled as a ${intoKind}: ${err.message}`,
        );
      }
      throw fail(err.message);
    }
  }
  const text = bytes.toString('utf8');
  if (media === 'application/yaml' || media === 'application/x-yaml' || media === 'text/yaml') {
    const doc = parseDocument(text, { uniqueKeys: false, version: '1.1' });
    if (doc.errors.length > 0) {
      throw fail(`error converting YAML to JSON: ${doc.errors[0]!.message}`);
    }
    const badKey = invalidMapKey(doc);
    if (badKey !== undefined) throw fail(`error converting YAML to JSON: ${badKey}`);
    let value: unknown;
    let raw: string;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
      // A self-referencing alias yields a cyclic value: too deep, like any over-nested document.
      if (exceedsJsonDepth(value)) throw new Error('exceeded max depth');
      raw = JSON.stringify(value) ?? 'null';
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw fail(`error converting YAML to JSON: ${message}`);
    }
    return { value, raw, bytes };
  }
  if (media === 'application/json' || media === '' || media.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw fail(`couldn't get version/kind; json parse error: ${goJsonErrorText(bytes, err)}`);
    }
    if (exceedsJsonDepth(value)) {
      throw fail(`couldn't get version/kind; json parse error: ${goJsonErrorText(bytes)}`);
    }
    return { value, raw: text, bytes };
  }
  throw apiErrors.unsupportedMediaType(media, accepted);
}
