/**
 * Computed resources: POST to a create-only one (reviews), GET (list or one by name) of a
 * read-only one (componentstatuses); every other verb is 405 as upstream.
 */
import { apiVersionOf } from '../../apis/resource.js';
import { apiErrors } from '../../machinery/errors.js';
import { decodeBody, readBody } from '../body.js';
import type { ServerRequest } from '../body.js';
import { decodeTyped, fieldValidationOf } from '../decode-request.js';
import type { SchemaRegistry } from '../../apis/schema/types.js';
import type { UserInfo } from '../../machinery/user.js';
import { dryRun, queryString } from '../endpoint.js';
import { representList, representObject } from '../representation.js';
import { negotiateFor } from '../negotiate.js';
import type { RequestInfo } from '../request-info.js';
import type { ServerResponseLike } from '../response.js';
import { addRequestWarnings, writeObject } from '../response.js';
import { auditRequestObject } from '../audit/recorder.js';
import type { StreamSession } from '../../machinery/stream-session.js';
import type { VirtualConnectEndpoint, VirtualEndpoint } from '../virtual-endpoint.js';
import { serveSpdySession, spdyHandshake } from '../streaming/spdy-session.js';
import {
  isWebSocketRequest,
  refuseWebSocket,
  serveWebSocketReader,
  serveWebSocketSession,
  websocketProtocol,
} from '../streaming/websocket-session.js';
import { takeOverUpgrade } from '../upgrade-response.js';

export interface VirtualHandlerContext {
  readonly req: ServerRequest;
  readonly res: ServerResponseLike;
  readonly url: URL;
  readonly request: RequestInfo;
  readonly endpoint: VirtualEndpoint;
  readonly schemas: SchemaRegistry;
  readonly user: UserInfo;
  readonly signal: AbortSignal;
}

export async function handleVirtual(ctx: VirtualHandlerContext): Promise<void> {
  const { info } = ctx.endpoint;
  const { request } = ctx;
  const path = ctx.endpoint.parent ?? info;
  const gr = { group: path.group, resource: path.resource };
  const sub = ctx.endpoint.subresource ?? '';
  const list = ctx.endpoint.list;
  if (list !== undefined && sub === '' && request.subresource === '') {
    if (request.verb === 'get' || request.verb === 'list') return answerRead(ctx, list);
    throw apiErrors.methodNotSupported(gr, request.verb === '' ? request.method : request.verb);
  }
  // A proxy subresource may carry a path after it (`pods/web/proxy/some/path`).
  const first = request.subresource.split('/', 1)[0] ?? '';
  const extraPath = first !== request.subresource;
  if (first !== sub || (extraPath && (ctx.endpoint.connect === undefined || sub !== 'proxy'))) {
    throw apiErrors.notFoundPath();
  }
  if ((sub === '') !== (request.name === '')) throw apiErrors.notFoundPath();
  if (info.namespaced ? request.namespace === '' : request.namespace !== '') throw apiErrors.notFoundPath();
  const connect = ctx.endpoint.connect;
  if (connect !== undefined && sub !== '') return answerConnect(ctx, connect, `${info.resource}/${sub}`);
  const create = ctx.endpoint.create;
  if (request.verb !== 'create' || create === undefined) {
    const resource = sub === '' ? gr : { ...gr, resource: `${info.resource}/${sub}` };
    throw apiErrors.methodNotSupported(resource, request.verb === '' ? request.method : request.verb);
  }
  // Create-only endpoints have a Table form only when they bring a convertor (none does
  // upstream); PartialObjectMetadata is always offered, as upstream's transform allows it.
  const negotiated = negotiateFor(
    ctx.req.headers.accept,
    ctx.endpoint.info,
    ctx.endpoint.table !== undefined,
  );
  const fieldValidation = fieldValidationOf(ctx.url);
  const body = decodeBody(ctx.req.headers['content-type'], await readBody(ctx.req), {
    apiVersion: apiVersionOf(info),
    kind: info.kind,
  });
  const typed = decodeTyped({ info, schemas: ctx.schemas, body, fieldValidation });
  auditRequestObject(ctx.req, typed.object);
  const out = await create({
    object: typed.object,
    user: ctx.user,
    namespace: request.namespace,
    name: request.name,
    dryRun: dryRun(ctx.url),
    signal: ctx.signal,
    warn: (message) => addRequestWarnings(ctx.res, [message]),
  });
  const table = {
    convertor: ctx.endpoint.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  };
  writeObject(ctx.res, 201, representObject(out, negotiated, table), {
    format: negotiated.format,
    warnings: typed.warnings,
  });
}

/** A request's headers by lower-case name, a repeated header's values joined with `, `. */
function headerRecord(h: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Whether a header value lists the token (Go's httpstream.IsUpgradeRequest on `Connection`). */
function hasToken(value: string | string[] | undefined, token: string): boolean {
  const all = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return all.some((v) => v.split(',').some((t) => t.trim().toLowerCase() === token));
}

async function answerConnect(
  ctx: VirtualHandlerContext,
  connect: VirtualConnectEndpoint,
  resource: string,
): Promise<void> {
  const { request } = ctx;
  const path = ctx.endpoint.parent ?? ctx.endpoint.info;
  // The proxies take OPTIONS too (upstream proxyMethods); its verb is '' and discovery omits it.
  const options = request.verb === '' && request.method === 'options' && resource.endsWith('/proxy');
  if (!connect.verbs.includes(request.verb) && !options) {
    throw apiErrors.methodNotSupported(
      { group: path.group, resource },
      request.verb === '' ? request.method : request.verb,
    );
  }
  const answer = await connect.handle({
    namespace: request.namespace,
    name: request.name,
    query: ctx.url.searchParams,
    upgrade: hasToken(ctx.req.headers.connection, 'upgrade'),
    path: request.subresource.slice(request.subresource.split('/', 1)[0]?.length ?? 0),
    user: ctx.user,
    signal: ctx.signal,
    http: {
      method: ctx.req.method ?? 'GET',
      requestPath: ctx.url.pathname,
      rawQuery: ctx.url.search.replace(/^\?/, ''),
      headers: headerRecord(ctx.req.headers),
      body: async () => (await readBody(ctx.req)).toString('utf8'),
    },
  });
  if (answer.session !== undefined) return serveSession(ctx, answer.session);
  const headers = answer.headers ?? {};
  if (answer.body === undefined) {
    ctx.res.writeHead(answer.status, { ...headers });
    ctx.res.end();
    return;
  }
  if (answer.status === 200 && isWebSocketRequest(ctx.req.headers)) {
    // A streamed body (pods/log) asked for over WebSocket: the API server frames it itself.
    const protocol = websocketProtocol(ctx.req.headers, 'reader');
    const conn = takeOverUpgrade(ctx.res);
    if (conn !== undefined) {
      if (protocol === undefined) return refuseWebSocket(conn);
      return serveWebSocketReader({ conn, protocol, body: answer.body, signal: ctx.signal });
    }
  }
  // A proxied server's answer keeps its own headers (none may name a type); ours are plain text.
  const type = answer.contentType ?? (answer.headers === undefined ? 'text/plain' : undefined);
  ctx.res.writeHead(answer.status, { ...headers, ...(type !== undefined ? { 'content-type': type } : {}) });
  try {
    for await (const chunk of answer.body) {
      if (ctx.signal.aborted) break;
      ctx.res.write(chunk);
    }
  } finally {
    ctx.res.end();
  }
}

/**
 * Serves a command session over the protocol the client upgrades to: WebSocket when it asks for
 * it, else SPDY/3.1 after the kubelet's handshake checks (refusals are plain-text answers).
 */
async function serveSession(ctx: VirtualHandlerContext, session: StreamSession): Promise<void> {
  if (isWebSocketRequest(ctx.req.headers)) {
    const protocol = websocketProtocol(ctx.req.headers, 'channel');
    const conn = takeOverUpgrade(ctx.res);
    if (conn === undefined) throw apiErrors.badRequest('Upgrade request required');
    if (protocol === undefined) return refuseWebSocket(conn);
    return serveWebSocketSession({ conn, protocol, session, signal: ctx.signal });
  }
  const shake = spdyHandshake({ headers: ctx.req.headers, rawHeaders: ctx.req.rawHeaders });
  if (!('protocol' in shake)) {
    ctx.res.writeHead(shake.status, { ...shake.headers });
    ctx.res.end(shake.body);
    return;
  }
  const conn = takeOverUpgrade(ctx.res);
  if (conn === undefined) throw apiErrors.badRequest('Upgrade request required');
  return serveSpdySession({ conn, protocol: shake.protocol, session, signal: ctx.signal });
}

async function answerRead(
  ctx: VirtualHandlerContext,
  list: NonNullable<VirtualEndpoint['list']>,
): Promise<void> {
  const { info } = ctx.endpoint;
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const items = await list({ signal: ctx.signal });
  const table = {
    convertor: ctx.endpoint.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  };
  const warnings = ctx.endpoint.warnings ?? [];
  if (ctx.request.verb === 'get') {
    const one = items.find((i) => i.metadata.name === ctx.request.name);
    if (one === undefined)
      throw apiErrors.notFound({ group: info.group, resource: info.resource }, ctx.request.name);
    writeObject(ctx.res, 200, representObject(one, negotiated, table), {
      format: negotiated.format,
      warnings,
    });
    return;
  }
  writeObject(ctx.res, 200, representList(info, items, {}, negotiated, table), {
    format: negotiated.format,
    warnings,
  });
}
