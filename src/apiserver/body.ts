/** Reading request bodies: a size limit (413 past 3 MiB) and JSON or YAML decoding into `unknown`. */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { parseDocument } from 'yaml';
import { apiErrors } from '../machinery/errors.js';
import { exceedsJsonDepth } from './json-depth.js';
import { bodyMediaType } from './negotiate.js';

/** kube-apiserver's default maximum request body (3 MiB). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

export type ServerRequest = IncomingMessage | Http2ServerRequest;

export async function readBody(req: ServerRequest, limit = maxRequestBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    throw apiErrors.requestEntityTooLarge(`limit is ${limit}`);
  }
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
}

/** Go's encoding/json wording for the common syntax errors JSON.parse reports. */
function goJsonError(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/Unexpected end of JSON input/i.test(msg)) return 'unexpected end of JSON input';
  const token = /Unexpected token '?(.)'?/.exec(msg);
  if (token !== null) return `invalid character '${token[1] ?? ''}' looking for beginning of value`;
  return msg;
}

const accepted = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

export function decodeBody(contentType: string | undefined, bytes: Buffer): DecodedBody {
  const media = bodyMediaType(contentType);
  const text = bytes.toString('utf8');
  if (media === 'application/yaml' || media === 'application/x-yaml' || media === 'text/yaml') {
    const doc = parseDocument(text, { uniqueKeys: false, version: '1.1' });
    if (doc.errors.length > 0) {
      throw apiErrors.badRequest(`error converting YAML to JSON: ${doc.errors[0]!.message}`);
    }
    let value: unknown;
    let raw: string;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
      // A self-referencing alias yields a cyclic value: too deep, like any over-nested document.
      if (exceedsJsonDepth(value)) throw new Error('exceeded max depth');
      raw = JSON.stringify(value) ?? 'null';
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw apiErrors.badRequest(`error converting YAML to JSON: ${message}`);
    }
    return { value, raw };
  }
  if (media === 'application/json' || media === '' || media.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw apiErrors.badRequest(`couldn't get version/kind; json parse error: ${goJsonError(err)}`);
    }
    if (exceedsJsonDepth(value)) {
      throw apiErrors.badRequest("couldn't get version/kind; json parse error: exceeded max depth");
    }
    return { value, raw: text };
  }
  throw apiErrors.unsupportedMediaType(media, accepted);
}
