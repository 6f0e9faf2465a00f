/** What the handlers need to serve one resource: its info, store and schema registry. */
import { apiErrors } from '../machinery/errors.js';
import type { ResourceInfo } from '../apis/resource.js';
import type { SchemaRegistry } from '../apis/schema/types.js';
import type { UserInfo } from '../machinery/user.js';
import type { BodyDecoder } from './decode-request.js';
import type { FeatureGateReader } from '../registry/strategy.js';
import type { VersionedStore } from '../registry/versioned-store.js';
import type { ServerRequest } from './body.js';
import type { RequestInfo } from './request-info.js';
import type { ServerResponseLike } from './response.js';

import type { WatchSupport } from './watch-encoder.js';

/** One served group/version/resource: what discovery says of it and the store at that version. */
export interface Endpoint {
  readonly info: ResourceInfo;
  readonly store: VersionedStore;
  /** How request bodies become objects (default: the typed decoder of built-in kinds). */
  readonly decode?: BodyDecoder;
}

export function endpointKey(info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>): string {
  return `${info.group}/${info.version}/${info.resource}`;
}

export interface HandlerContext {
  readonly req: ServerRequest;
  readonly res: ServerResponseLike;
  readonly url: URL;
  readonly request: RequestInfo;
  readonly endpoint: Endpoint;
  readonly schemas: SchemaRegistry;
  readonly features: FeatureGateReader;
  /** Aborted when the client goes away, the request's deadline passes or the server shuts down. */
  readonly signal: AbortSignal;
  /** Who the request acts as (after authentication and impersonation). */
  readonly user: UserInfo;
  /** Shared watch machinery of the server (event encodings, bookmark interval). */
  readonly watch: WatchSupport;
  /** Aborted when the endpoint stops being served (watches on it end, as upstream's do). */
  readonly served: AbortSignal;
}

export type Handler = (ctx: HandlerContext) => Promise<void>;

/** Query parameter helpers. */
export function queryString(url: URL, name: string): string | undefined {
  const v = url.searchParams.get(name);
  return v === null ? undefined : v;
}

const int64Max = 2n ** 63n - 1n;

/**
 * An integer query parameter parsed like Go's strconv.ParseInt(s, 10, 64) (how upstream decodes
 * ListOptions/DeleteOptions fields): 400 BadRequest with strconv's message when it does not parse.
 * An absent or empty parameter is undefined. Values beyond 2^53 lose precision.
 */
export function queryInt(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null || v === '') return undefined;
  if (!/^[+-]?\d+$/.test(v)) {
    throw apiErrors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  }
  const n = BigInt(v);
  if (n > int64Max || n < -int64Max - 1n) {
    throw apiErrors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  }
  return Number(n);
}

export function queryBool(url: URL, name: string): boolean | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  return v === '' || v === '1' || v.toLowerCase() === 'true';
}

/** `dryRun=All` (the only value upstream accepts). */
export function dryRun(url: URL): boolean {
  const values = url.searchParams.getAll('dryRun');
  return values.includes('All');
}
