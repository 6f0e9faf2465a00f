/**
 * The API server's proxy for a plain HTTP request (upstream apimachinery util/proxy
 * UpgradeAwareHandler.ServeHTTP with its rewriting Transport, v1.27), in front of a backend that
 * answers in-process (a server in a simulated pod):
 *
 * - a GET or HEAD of the proxy's root without a path is redirected (301) to the same URL with `/`;
 * - the request goes on with its method, query, headers and body; a trailing `/` is kept;
 * - a connection that fails is `503 ServiceUnavailable`, "error trying to reach service: …";
 * - a `Location` header and, in a text/html answer, the links of the page (html-rewrite.ts) that
 *   point into the backend are rewritten to point through the proxy;
 * - the backend's CORS headers and hop-by-hop headers are dropped.
 */
import { rootedCleanPath } from '../../../util/go-path.js';
import type { PodHttpOutcome, SimHttpRequest } from '../../../machinery/http-exchange.js';
import { StatusError } from '../../../machinery/errors.js';
import { rewriteHtml } from './html-rewrite.js';

/** The client's request to a proxy subresource, as the proxy forwards it. */
export interface ProxiedRequest {
  readonly method: string;
  /** The request's path as sent to the API server (`/api/v1/namespaces/ns/pods/web/proxy/x`). */
  readonly requestPath: string;
  /** The path after `proxy` ('' when none). */
  readonly path: string;
  readonly rawQuery: string;
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: () => Promise<string>;
}

export interface ProxiedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Headers a proxy does not forward (Go's httputil.ReverseProxy hopHeaders) and the CORS ones upstream removes. */
const droppedHeaders = new Set(
  [
    'Connection',
    'Proxy-Connection',
    'Keep-Alive',
    'Proxy-Authenticate',
    'Proxy-Authorization',
    'Te',
    'Trailer',
    'Transfer-Encoding',
    'Upgrade',
    'Content-Length',
    'Access-Control-Allow-Credentials',
    'Access-Control-Allow-Headers',
    'Access-Control-Allow-Methods',
    'Access-Control-Allow-Origin',
  ].map((h) => h.toLowerCase()),
);

/** Request headers the API server consumes rather than forwards. */
const requestOnlyHeaders = new Set([
  'authorization',
  'impersonate-user',
  'impersonate-group',
  'impersonate-uid',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'transfer-encoding',
  'proxy-connection',
]);

/** Go's path.Join of absolute paths (cleaned). */
interface ParsedUrl {
  scheme: string;
  host: string;
  path: string;
  rawQuery: string | undefined;
  fragment: string | undefined;
}

const urlPattern = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parseUrl(s: string): ParsedUrl | undefined {
  const m = urlPattern.exec(s);
  if (m === null) return undefined;
  return { scheme: m[1] ?? '', host: m[2] ?? '', path: m[3] ?? '', rawQuery: m[4], fragment: m[5] };
}

function formatUrl(u: ParsedUrl): string {
  let out = u.scheme === '' ? '' : `${u.scheme}:`;
  if (u.host !== '' || u.scheme !== '') out += `//${u.host}`;
  out += u.path;
  if (u.rawQuery !== undefined && u.rawQuery !== '') out += `?${u.rawQuery}`;
  if (u.fragment !== undefined) out += `#${u.fragment}`;
  return out;
}

/**
 * Upstream Transport.rewriteURL: a URL on the backend's host (or the client's) with an absolute
 * path is moved under the proxy's path; the transport's scheme and host are the API server
 * request's, which a server-side request leaves empty.
 */
function rewriteUrl(raw: string, backendHost: string, requestHost: string, pathPrepend: string): string {
  const u = parseUrl(raw);
  if (u === undefined) return raw;
  const differentHost = u.host !== '' && u.host !== backendHost && u.host !== requestHost;
  if (differentHost || !u.path.startsWith('/')) return raw;
  if (u.host !== requestHost) {
    u.scheme = '';
    u.host = '';
  }
  if (u.path.startsWith(pathPrepend)) return formatUrl(u);
  const orig = u.path;
  u.path = rootedCleanPath(`${pathPrepend}/${u.path}`);
  if (orig.endsWith('/') && !u.path.endsWith('/')) u.path += '/';
  return formatUrl(u);
}

/**
 * Upstream proxyRedirectsforRootPath: a GET or HEAD of a proxy with no path after it is sent to
 * the same URL with `/` (301), before any backend is dialled; undefined for any other request.
 */
export function rootRedirect(
  r: Pick<ProxiedRequest, 'method' | 'requestPath' | 'path' | 'rawQuery'>,
): ProxiedAnswer | undefined {
  if (r.path !== '' || r.requestPath.endsWith('/') || (r.method !== 'GET' && r.method !== 'HEAD'))
    return undefined;
  const query = r.rawQuery === '' ? '' : `?${r.rawQuery}`;
  return { status: 301, headers: { Location: `${r.requestPath}/${query}` }, body: '' };
}

/**
 * Proxies `r` to a backend at `backendHost` (`10.244.1.5:80`) reached through `send`; `tls` when
 * the location's scheme is https.
 */
export async function proxyHttp(
  r: ProxiedRequest,
  backendHost: string,
  tls: boolean,
  send: (req: SimHttpRequest) => Promise<PodHttpOutcome>,
): Promise<ProxiedAnswer> {
  const redirect = rootRedirect(r);
  if (redirect !== undefined) return redirect;
  let locPath = r.path;
  if (!locPath.endsWith('/') && r.requestPath.endsWith('/')) locPath += '/';
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (!requestOnlyHeaders.has(k)) headers[k] = v;
  const out = await send({
    method: r.method,
    path: locPath === '' ? '/' : locPath,
    rawQuery: r.rawQuery,
    headers,
    body: ['GET', 'HEAD'].includes(r.method) ? '' : await r.body(),
    tls,
  });
  if (out.kind === 'failed') {
    throw new StatusError(503, 'ServiceUnavailable', `error trying to reach service: ${out.error}`);
  }
  if (out.kind === 'unknowable') throw new StatusError(502, '', out.reason);
  const resp = out.response;
  const answerHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(resp.headers))
    if (!droppedHeaders.has(k.toLowerCase())) answerHeaders[k] = v;
  // defaultProxyTransport's PathPrepend: the request path without the location's path.
  let suffix = r.path;
  if (r.requestPath.endsWith('/') && !suffix.endsWith('/')) suffix += '/';
  const pathPrepend = r.requestPath.endsWith(suffix)
    ? r.requestPath.slice(0, r.requestPath.length - suffix.length)
    : r.requestPath;
  const requestHost = r.headers['host'] ?? '';
  const location = Object.keys(answerHeaders).find((k) => k.toLowerCase() === 'location');
  if (location !== undefined) {
    answerHeaders[location] = rewriteUrl(
      answerHeaders[location] ?? '',
      backendHost,
      requestHost,
      pathPrepend,
    );
    return { status: resp.status, headers: answerHeaders, body: resp.body };
  }
  const typeKey = Object.keys(answerHeaders).find((k) => k.toLowerCase() === 'content-type');
  const type = (typeKey === undefined ? '' : (answerHeaders[typeKey] ?? '')).split(';', 1)[0]?.trim();
  if (type !== 'text/html' || resp.body === '')
    return { status: resp.status, headers: answerHeaders, body: resp.body };
  const body = rewriteHtml(resp.body, (url) => rewriteUrl(url, backendHost, requestHost, pathPrepend));
  return { status: resp.status, headers: answerHeaders, body };
}
