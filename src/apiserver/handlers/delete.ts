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
import { auditAnnotator, auditRequestObject } from '../audit/recorder.js';
import { validateDeleteOptions } from '../../registry/generic/gc-finalizers.js';
import { listRequestOf } from './list-request.js';

const policies = ['Orphan', 'Background', 'Foreground'] as const;
type Policy = (typeof policies)[number];

/** DeleteOptions as sent, before validation (the policy may be any string). */
type RawDeleteOptions = Omit<
  { -readonly [K in keyof DeleteRequest]: DeleteRequest[K] },
  'propagationPolicy'
> & {
  propagationPolicy?: string;
};

/** A boolean query parameter as upstream's conversion reads it: "0" and "false" are false. */
function queryFlag(url: URL, name: string): boolean | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/**
 * DeleteOptions from the body when there is one, else from the query (upstream's DeleteResource
 * reads one or the other), checked as ValidateDeleteOptions does.
 */
async function deleteRequestOf(ctx: HandlerContext): Promise<DeleteRequest> {
  const bytes = await readBody(ctx.req);
  const opts: RawDeleteOptions = {
    dryRun: false,
    user: ctx.user,
    ...auditAnnotator(ctx.req),
    signal: ctx.signal,
  };
  if (bytes.byteLength > 0) {
    const { value } = decodeBody(ctx.req.headers['content-type'], bytes);
    if (!isJsonObject(value)) throw apiErrors.badRequest('DeleteOptions must be an object');
    auditRequestObject(ctx.req, value);
    const grace = value['gracePeriodSeconds'];
    if (typeof grace === 'number') opts.gracePeriodSeconds = grace;
    const pol = value['propagationPolicy'];
    if (typeof pol === 'string') opts.propagationPolicy = pol;
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
  } else {
    opts.dryRun = dryRun(ctx.url);
    const grace = queryInt(ctx.url, 'gracePeriodSeconds');
    if (grace !== undefined) opts.gracePeriodSeconds = grace;
    const pol = queryString(ctx.url, 'propagationPolicy');
    if (pol !== undefined) opts.propagationPolicy = pol;
    const orphan = queryFlag(ctx.url, 'orphanDependents');
    if (orphan !== undefined) opts.orphanDependents = orphan;
  }
  const errs = validateDeleteOptions(opts);
  if (errs.length > 0) throw apiErrors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  const { propagationPolicy, ...rest } = opts;
  const policy = policies.find((p): p is Policy => p === propagationPolicy);
  return { ...rest, ...(policy !== undefined ? { propagationPolicy: policy } : {}) };
}

export async function handleDelete(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const { store, info } = ctx.endpoint;
  const req = await deleteRequestOf(ctx);
  const result = await store.delete(ctx.request.namespace, ctx.request.name, req);
  // Upstream answers 202 only when the object stays and the client asked for cascading
  // deletion through the deprecated orphanDependents=false.
  const code = !result.deleted && req.orphanDependents === false ? 202 : 200;
  const finalized = result.deleted || result.pendingGraceful === true;
  if (!finalized || store.resource.returnDeletedObject === true) {
    writeObject(ctx.res, code, result.object, { format: negotiated.format, pretty: isPrettyPrint(ctx.req) });
    return;
  }
  const details: Record<string, string> = { name: ctx.request.name };
  if (info.group !== '') details['group'] = info.group;
  details['kind'] = info.resource;
  details['uid'] = result.object.metadata.uid ?? '';
  writeObject(ctx.res, code, successStatus(details), {
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
