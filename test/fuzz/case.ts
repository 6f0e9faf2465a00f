/**
 * One fuzz case: a request as plain data, so that it can be printed, stored in the corpus and
 * replayed exactly. A body is a list of parts (text or base64 bytes, each optionally repeated),
 * which keeps deep nesting and multi-megabyte bodies small on disk.
 */
export interface BodyPart {
  readonly text?: string;
  readonly base64?: string;
  /** How many times the part is repeated (1 when absent). */
  readonly repeat?: number;
}

export interface FuzzCase {
  /** The generator that made it (or the corpus entry's name). */
  readonly family: string;
  readonly method: string;
  /** Path and query, sent byte for byte. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: readonly BodyPart[];
  /** Sent over HTTP/2 instead of HTTP/1.1. */
  readonly http2?: boolean;
  /**
   * `invalid`: the request is wrong, the answer must be a 4xx Status; `any`: the input may be
   * valid, a 2xx is fine too (but never a 5xx).
   */
  readonly expect: 'invalid' | 'any';
}

export function text(t: string, repeat?: number): BodyPart {
  return repeat === undefined ? { text: t } : { text: t, repeat };
}

export function bytes(b: Uint8Array, repeat?: number): BodyPart {
  const base64 = Buffer.from(b).toString('base64');
  return repeat === undefined ? { base64 } : { base64, repeat };
}

/** The body's bytes. */
export function bodyBytes(parts: readonly BodyPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const one = p.base64 !== undefined ? Buffer.from(p.base64, 'base64') : Buffer.from(p.text ?? '', 'utf8');
    const n = p.repeat ?? 1;
    chunks.push(n === 1 ? one : Buffer.alloc(one.length * n, one));
  }
  return Buffer.concat(chunks);
}

/** A short one-line description for failure messages. */
export function describeCase(c: FuzzCase): string {
  const ct = c.headers?.['content-type'] ?? '';
  const size = c.body === undefined ? 0 : bodyBytes(c.body).length;
  const preview = c.body === undefined ? '' : bodyBytes(c.body).subarray(0, 160).toString('utf8');
  return `[${c.family}] ${c.http2 === true ? 'h2 ' : ''}${c.method} ${c.path.slice(0, 200)} ${ct} (${size} B) ${JSON.stringify(preview)}`;
}
