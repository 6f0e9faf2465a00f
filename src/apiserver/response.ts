/** Writing responses: JSON/YAML objects, Status errors and Warning headers. */
import { constants as http2constants } from 'node:http2';
import { stringify as yamlStringify } from 'yaml';
import { apiErrors, StatusError } from '../machinery/errors.js';
import type { Status } from '../machinery/status.js';

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

/** `Warning: 299 - "text"` headers, as kube-apiserver sends them. */
export function warningHeaders(warnings: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of warnings) {
    if (seen.has(w)) continue;
    seen.add(w);
    out.push(`299 - ${JSON.stringify(w)}`);
  }
  return out;
}

export function writeObject(
  res: ServerResponseLike,
  code: number,
  body: unknown,
  options: { readonly format?: 'json' | 'yaml'; readonly warnings?: readonly string[] } = {},
): void {
  const yaml = options.format === 'yaml';
  const text = yaml ? yamlStringify(body) : JSON.stringify(body);
  const headers: Record<string, string | string[]> = {
    'content-type': yaml ? 'application/yaml' : 'application/json',
    'cache-control': 'no-cache, private',
    'content-length': String(Buffer.byteLength(text)),
  };
  const warnings = warningHeaders(options.warnings ?? []);
  if (warnings.length > 0) headers['warning'] = warnings;
  res.writeHead(code, headers);
  res.end(text);
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
  writeObject(res, status.code, status, { warnings });
}

export function successStatus(details: Record<string, string>): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
