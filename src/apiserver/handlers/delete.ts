/** DELETE of one object, and of a collection. */
import { apiVersionOf } from '../../apis/resource.js';
import { apiErrors } from '../../machinery/errors.js';
import type { DeleteRequest } from '../../registry/options.js';
import { isJsonObject } from '../../util/json.js';
import { decodeBody, readBody } from '../body.js';
import type { HandlerContext } from '../endpoint.js';
import { dryRun, queryInt, queryString } from '../endpoint.js';
import { negotiateFor, isPrettyPrint } from '../negotiate.js';
import { writeObject, successStatus } from '../response.js';
import { listRequestOf } from './list-request.js';

const policies = ['Orphan', 'Background', 'Foreground'] as const;

/** DeleteOptions from the body (if any) and the query, query winning as upstream. */
async function deleteRequestOf(ctx: HandlerContext): Promise<DeleteRequest> {
  const bytes = await readBody(ctx.req);
  const opts: { -readonly [K in keyof DeleteRequest]: DeleteRequest[K] } = {
    dryRun: dryRun(ctx.url),
    user: ctx.user,
  };
  if (bytes.byteLength > 0) {
    const { value } = decodeBody(ctx.req.headers['content-type'], bytes);
    if (!isJsonObject(value)) throw apiErrors.badRequest('DeleteOptions must be an object');
    const grace = value['gracePeriodSeconds'];
    if (typeof grace === 'number') opts.gracePeriodSeconds = grace;
    const pol = value['propagationPolicy'];
    if (typeof pol === 'string') opts.propagationPolicy = checkPolicy(pol);
    const pre = value['preconditions'];
    if (isJsonObject(pre)) {
      const p: { uid?: string; resourceVersion?: string } = {};
      if (typeof pre['uid'] === 'string') p.uid = pre['uid'];
      if (typeof pre['resourceVersion'] === 'string') p.resourceVersion = pre['resourceVersion'];
      opts.preconditions = p;
    }
    const dr = value['dryRun'];
    if (Array.isArray(dr) && dr.includes('All')) opts.dryRun = true;
    if (typeof value['orphanDependents'] === 'boolean') opts.orphanDependents = value['orphanDependents'];
  }
  const grace = queryInt(ctx.url, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const pol = queryString(ctx.url, 'propagationPolicy');
  if (pol !== undefined) opts.propagationPolicy = checkPolicy(pol);
  return opts;
}

function checkPolicy(p: string): (typeof policies)[number] {
  const found = policies.find((x) => x === p);
  if (found === undefined) {
    throw apiErrors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', []);
  }
  return found;
}

export async function handleDelete(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const { store, info } = ctx.endpoint;
  const req = await deleteRequestOf(ctx);
  const result = await store.delete(ctx.request.namespace, ctx.request.name, req);
  if (!result.deleted || store.resource.returnDeletedObject === true) {
    writeObject(ctx.res, 200, result.object, { format: negotiated.format, pretty: isPrettyPrint(ctx.req) });
    return;
  }
  const details: Record<string, string> = { name: ctx.request.name };
  if (info.group !== '') details['group'] = info.group;
  details['kind'] = info.resource;
  details['uid'] = result.object.metadata.uid ?? '';
  writeObject(ctx.res, 200, successStatus(details), {
    format: negotiated.format,
    pretty: isPrettyPrint(ctx.req),
  });
}

export async function handleDeleteCollection(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const { store, info } = ctx.endpoint;
  const req = await deleteRequestOf(ctx);
  const items = await store.deleteCollection(ctx.request.namespace, listRequestOf(ctx.url), req);
  writeObject(
    ctx.res,
    200,
    { kind: `${info.kind}List`, apiVersion: apiVersionOf(info), metadata: {}, items },
    { format: negotiated.format, pretty: isPrettyPrint(ctx.req) },
  );
}
