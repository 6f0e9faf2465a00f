/** POST to a collection. */
import { apiVersionOf } from '../../apis/resource.js';
import { decodeTyped, fieldValidationOf } from '../decode-request.js';
import { decodeBody, readBody } from '../body.js';
import type { HandlerContext } from '../endpoint.js';
import { dryRun, queryString } from '../endpoint.js';
import { negotiateFor, isPrettyPrint } from '../negotiate.js';
import { representObject } from '../representation.js';
import { writeObject } from '../response.js';
import { auditAnnotator, auditRequestObject } from '../audit/recorder.js';
import { checkFieldManagerOptions, fieldManagerFor, managerOrUserAgent } from '../managed-fields.js';
import { sentManagedFields } from '../../machinery/managedfields/field-manager.js';

export async function handleCreate(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const fieldValidation = fieldValidationOf(ctx.url);
  const { info, store } = ctx.endpoint;
  checkFieldManagerOptions(ctx, 'CreateOptions');
  const body = decodeBody(ctx.req.headers['content-type'], await readBody(ctx.req), {
    apiVersion: apiVersionOf(info),
    kind: info.kind,
  });
  const typed = (ctx.endpoint.decode ?? decodeTyped)({ info, schemas: ctx.schemas, body, fieldValidation });
  auditRequestObject(ctx.req, typed.object);
  const obj = fieldManagerFor(ctx).update(
    undefined,
    typed.object,
    managerOrUserAgent(ctx),
    sentManagedFields(body.value),
  );
  const result = await store.create(ctx.request.namespace, obj, {
    dryRun: dryRun(ctx.url),
    user: ctx.user,
    ...auditAnnotator(ctx.req),
    signal: ctx.signal,
  });
  const out = representObject(result.object, negotiated, {
    convertor: store.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  });
  writeObject(ctx.res, 201, out, {
    format: negotiated.format,
    pretty: isPrettyPrint(ctx.req),
    warnings: [...typed.warnings, ...result.warnings],
  });
}
