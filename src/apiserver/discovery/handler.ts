/**
 * Serves discovery: /api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>, and the
 * aggregated v2beta1 documents (AM-15) with ETag / 304 for clients that ask for them.
 */
import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../../apis/resource.js';
import { apiErrors } from '../../machinery/errors.js';
import type { ServerRequest } from '../body.js';
import { parseAccept } from '../negotiate.js';
import type { ServerResponseLike } from '../response.js';
import { requestOf, writeError } from '../response.js';
import { endWhole } from '../response-compression.js';
import {
  aggregatedDocument,
  apiGroupDocument,
  apiGroupListDocument,
  apiResourceListDocument,
  apiVersionsDocument,
} from './documents.js';

const aggregatedType = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

interface Cached {
  readonly body: string;
  readonly etag: string;
}

/** The document and its ETag: upstream's calculateETag, the SHA-512 of its JSON in upper-case hex, quoted. */
function cache(doc: unknown): Cached {
  const body = JSON.stringify(doc);
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
}

export class DiscoveryHandler {
  readonly #resources: () => readonly ResourceInfo[];
  readonly #serverAddress: () => string;
  #aggregated: { api: Cached; apis: Cached } | undefined;

  constructor(o: { resources: () => readonly ResourceInfo[]; serverAddress: () => string }) {
    this.#resources = o.resources;
    this.#serverAddress = o.serverAddress;
  }

  /** Drops cached documents (resources changed, e.g. a CRD came or went). */
  invalidate(): void {
    this.#aggregated = undefined;
  }

  /**
   * Whether the first media type this server can produce is the aggregated document: an
   * `as=APIGroupDiscoveryList` this release does not serve (v2, kubectl 1.30+ asks for it first) is
   * passed over, as upstream's negotiation does.
   */
  #wantsAggregated(accept: string | undefined): boolean {
    for (const m of parseAccept(accept)) {
      if (m.type !== 'application/json' && m.type !== '*/*' && m.type !== 'application/*') continue;
      if (!m.params.has('as')) return false;
      if (
        m.params.get('g') === 'apidiscovery.k8s.io' &&
        m.params.get('v') === 'v2beta1' &&
        m.params.get('as') === 'APIGroupDiscoveryList'
      ) {
        return true;
      }
    }
    return false;
  }

  /** Returns true when the path was a discovery path and has been answered. */
  handle(req: ServerRequest, res: ServerResponseLike, parts: readonly string[]): boolean {
    const [prefix, group, version, ...rest] = parts;
    if (rest.length > 0 || (prefix !== 'api' && prefix !== 'apis')) return false;
    const resources = this.#resources();
    if (group === undefined) {
      if (this.#wantsAggregated(req.headers.accept)) {
        this.#aggregated ??= {
          api: cache(aggregatedDocument(resources, true)),
          apis: cache(aggregatedDocument(resources, false)),
        };
        const c = prefix === 'api' ? this.#aggregated.api : this.#aggregated.apis;
        const headers = {
          'content-type': aggregatedType,
          etag: c.etag,
          vary: 'Accept',
          // Upstream's ServeHTTPWithETag: clients may keep the document and revalidate by ETag.
          'cache-control': 'public',
        };
        if (req.headers['if-none-match'] === c.etag) {
          res.writeHead(304, headers);
          res.end();
        } else {
          endWhole(res, req, 200, headers, c.body);
        }
        return true;
      }
      const doc =
        prefix === 'api' ? apiVersionsDocument(this.#serverAddress()) : apiGroupListDocument(resources);
      send(res, doc);
      return true;
    }
    if (prefix === 'api') {
      if (version !== undefined) return false;
      const doc = apiResourceListDocument(resources, '', group);
      if (doc === undefined) writeError(res, apiErrors.notFoundPath());
      else send(res, doc);
      return true;
    }
    const doc =
      version === undefined
        ? apiGroupDocument(resources, group)
        : apiResourceListDocument(resources, group, version);
    if (doc === undefined) writeError(res, apiErrors.notFoundPath());
    else send(res, doc);
    return true;
  }
}

function send(res: ServerResponseLike, doc: unknown): void {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-cache, private' };
  endWhole(res, requestOf(res), 200, headers, JSON.stringify(doc));
}
