/**
 * Serves /openapi/v2 (JSON, and the gnostic protobuf kubectl 1.27 asks for), /swagger-2.0.0.pb-v1,
 * and /openapi/v3 with per-group-version documents addressed by content hash (AM-16).
 * Documents are built on first use and cached as bytes.
 */
import { createHash } from 'node:crypto';
import type { ServerRequest } from '../body.js';
import { parseAccept } from '../negotiate.js';
import type { ServerResponseLike } from '../response.js';
import type { OpenApiOptions } from './v2.js';

const protoAccept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const protoContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface Bytes {
  readonly body: Buffer;
  readonly etag: string;
}

function bytes(body: Buffer | string): Bytes {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  return { body: b, etag: `"${createHash('sha512').update(b).digest('hex').toUpperCase()}"` };
}

export class OpenApiHandler {
  readonly #options: () => OpenApiOptions;
  #v2Json: Bytes | undefined;
  #v2Proto: Bytes | undefined;
  #v3: Map<string, { bytes: Bytes; hash: string }> | undefined;
  #v3Index: Bytes | undefined;

  constructor(options: () => OpenApiOptions) {
    this.#options = options;
  }

  invalidate(): void {
    this.#v2Json = this.#v2Proto = this.#v3Index = undefined;
    this.#v3 = undefined;
  }

  // The builders load on first use: most runs never ask for OpenAPI, and start-up stays lean.
  async #v2Doc() {
    const { buildOpenApiV2 } = await import('./v2.js');
    return buildOpenApiV2(this.#options());
  }

  async #ensureV3(): Promise<Map<string, { bytes: Bytes; hash: string }>> {
    if (this.#v3 !== undefined) return this.#v3;
    const { buildOpenApiV3, buildOpenApiV3Index, openApiV3Hash } = await import('./v3.js');
    const docs = buildOpenApiV3(this.#options());
    const map = new Map<string, { bytes: Bytes; hash: string }>();
    for (const d of docs) {
      const text = JSON.stringify(d.document);
      map.set(d.path, { bytes: bytes(text), hash: openApiV3Hash(text) });
    }
    this.#v3Index = bytes(JSON.stringify(buildOpenApiV3Index(docs)));
    this.#v3 = map;
    return map;
  }

  /** Returns true when the path was an OpenAPI path and has been answered. */
  async handle(req: ServerRequest, res: ServerResponseLike, url: URL): Promise<boolean> {
    const path = url.pathname;
    if (path === '/openapi/v2' || path === '/swagger-2.0.0.pb-v1') {
      const wantsProto =
        path === '/swagger-2.0.0.pb-v1' ||
        parseAccept(req.headers.accept).some((m) => m.type === protoAccept);
      if (wantsProto) {
        if (this.#v2Proto === undefined) {
          const { encodeOpenApiV2Protobuf } = await import('./v2-protobuf.js');
          this.#v2Proto = bytes(Buffer.from(encodeOpenApiV2Protobuf(await this.#v2Doc())));
        }
        send(req, res, this.#v2Proto, protoContentType, false);
      } else {
        this.#v2Json ??= bytes(JSON.stringify(await this.#v2Doc()));
        send(req, res, this.#v2Json, 'application/json', false);
      }
      return true;
    }
    if (path === '/openapi/v3' || path === '/openapi/v3/') {
      await this.#ensureV3();
      send(req, res, this.#v3Index!, 'application/json', false);
      return true;
    }
    if (path.startsWith('/openapi/v3/')) {
      const key = path.slice('/openapi/v3/'.length);
      const doc = (await this.#ensureV3()).get(key);
      if (doc === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('404 page not found\n');
        return true;
      }
      const hash = url.searchParams.get('hash');
      if (hash !== null && hash !== doc.hash) {
        // A stale hash redirects to the current document, as upstream does.
        res.writeHead(301, { location: `/openapi/v3/${key}?hash=${doc.hash}` });
        res.end();
        return true;
      }
      send(req, res, doc.bytes, 'application/json', hash !== null);
      return true;
    }
    return false;
  }
}

function send(req: ServerRequest, res: ServerResponseLike, b: Bytes, type: string, immutable: boolean): void {
  const headers: Record<string, string> = {
    'content-type': type,
    etag: b.etag,
    'cache-control': immutable ? 'public, immutable' : 'no-cache, private',
  };
  if (req.headers['if-none-match'] === b.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['content-length'] = String(b.body.byteLength);
  res.writeHead(200, headers);
  res.end(b.body);
}
