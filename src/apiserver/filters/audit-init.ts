/**
 * The first stage (upstream WithAuditInit): every request gets an audit ID, the client's
 * `Audit-ID` header when it sent one, and the response carries it as `Audit-Id`.
 */
import { randomUUID } from 'node:crypto';
import type { Filter } from '../context.js';

export const withAuditInit: Filter = (ctx, next) => {
  const sent = ctx.req.headers['audit-id'];
  const id = typeof sent === 'string' && sent !== '' ? sent : randomUUID();
  ctx.res.setHeader('audit-id', id);
  return next({ ...ctx, audit: { id, annotations: ctx.audit.annotations } });
};
