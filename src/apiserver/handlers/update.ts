/** PUT on an object (or its status/scale subresource through `strategy`). */
import { apiVersionOf } from '../../apis/resource.js';
import { decodeTyped, fieldValidationOf } from '../decode-request.js';
import { decodeBody, readBody } from '../body.js';
import type { HandlerContext } from '../endpoint.js';
import { dryRun, queryString } from '../endpoint.js';
import { negotiateFor, isPrettyPrint } from '../negotiate.js';
import { representObject } from '../representation.js';
import { writeObject } from '../response.js';
import { auditAnnotator, auditRequestObject } from '../audit/recorder.js';
import type { UpdateRequest } from '../../registry/generic/store.js';
import { subresourceStrategy } from './subresource.js';
import { checkFieldManagerOptions, fieldManagerFor, managerOrUserAgent } from '../managed-fields.js';
import { sentManagedFields } from '../../machinery/managedfields/field-manager.js';

export async function handleUpdate(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const fieldValidation = fieldValidationOf(ctx.url);
  const { info, store } = ctx.endpoint;
  checkFieldManagerOptions(ctx, 'UpdateOptions');
  const body = decodeBody(ctx.req.headers['content-type'], await readBody(ctx.req), {
    apiVersion: apiVersionOf(info),
    kind: info.kind,
  });
  const typed = (ctx.endpoint.decode ?? decodeTyped)({ info, schemas: ctx.schemas, body, fieldValidation });
  auditRequestObject(ctx.req, typed.object);
  const sub = subresourceStrategy(ctx);
  // A metadata.uid in the body is a storage precondition (rest.defaultUpdatedObjectInfo).
  const uid = typed.object.metadata.uid ?? '';
  const request: UpdateRequest = {
    dryRun: dryRun(ctx.url),
    user: ctx.user,
    ...auditAnnotator(ctx.req),
    signal: ctx.signal,
    ...sub,
    ...(uid !== '' ? { uidPrecondition: uid } : {}),
  };
  const fm = fieldManagerFor(ctx);
  const sent = sentManagedFields(body.value);
  const manager = managerOrUserAgent(ctx);
  const result = await store.update(
    ctx.request.namespace,
    ctx.request.name,
    (current) => fm.update(current, typed.object, manager, sent),
    request,
  );
  const out = representObject(result.object, negotiated, {
    convertor: store.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  });
  writeObject(ctx.res, result.created ? 201 : 200, out, {
    format: negotiated.format,
    pretty: isPrettyPrint(ctx.req),
    warnings: [...typed.warnings, ...result.warnings],
  });
}
