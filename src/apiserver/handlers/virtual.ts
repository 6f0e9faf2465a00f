/** POST to a create-only computed resource (reviews); every other verb is 405 as upstream. */
import { apiErrors } from '../../machinery/errors.js';
import { decodeBody, readBody } from '../body.js';
import type { ServerRequest } from '../body.js';
import { decodeTyped, fieldValidationOf } from '../decode-request.js';
import type { SchemaRegistry } from '../../apis/schema/types.js';
import type { UserInfo } from '../../machinery/user.js';
import { dryRun } from '../endpoint.js';
import { negotiateObject } from '../negotiate.js';
import type { RequestInfo } from '../request-info.js';
import type { ServerResponseLike } from '../response.js';
import { writeObject } from '../response.js';
import type { VirtualEndpoint } from '../virtual-endpoint.js';

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
  if (request.subresource !== sub || (sub === '') !== (request.name === '')) throw apiErrors.notFoundPath();
  if (info.namespaced ? request.namespace === '' : request.namespace !== '') throw apiErrors.notFoundPath();
  if (request.verb !== 'create') {
    const resource = sub === '' ? gr : { ...gr, resource: `${info.resource}/${sub}` };
    throw apiErrors.methodNotSupported(resource, request.verb === '' ? request.method : request.verb);
  }
  const negotiated = negotiateObject(ctx.req.headers.accept);
  const fieldValidation = fieldValidationOf(ctx.url);
  const body = decodeBody(ctx.req.headers['content-type'], await readBody(ctx.req));
  const typed = decodeTyped({ info, schemas: ctx.schemas, body, fieldValidation });
  const out = await ctx.endpoint.create({
    object: typed.object,
    user: ctx.user,
    namespace: request.namespace,
    name: request.name,
    dryRun: dryRun(ctx.url),
    signal: ctx.signal,
  });
  writeObject(ctx.res, 201, out, { format: negotiated.format, warnings: typed.warnings });
}
