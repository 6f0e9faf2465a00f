/**
 * Label values as upstream's endpoints/metrics computes them: the reported verb (the HTTP method,
 * GET told from LIST by scope, WATCH, APPLY and CONNECT marked, anything unknown "other"), the
 * scope ("resource" / "namespace" / "cluster", "" off the resource paths) and the dry-run value.
 */
import type { RequestInfo } from '../request-info.js';

const applyPatchType = 'application/apply-patch+yaml';

const connectSubresources = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

const reportedVerbs = new Set([
  'APPLY',
  'CONNECT',
  'CREATE',
  'DELETE',
  'DELETECOLLECTION',
  'GET',
  'LIST',
  'PATCH',
  'POST',
  'PROXY',
  'PUT',
  'UPDATE',
  'WATCH',
  'WATCHLIST',
]);

/** Upstream CleanScope: a named object or a create is "resource". */
export function scopeOf(info: RequestInfo): '' | 'resource' | 'namespace' | 'cluster' {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** The subresource label: its first segment (`pods/x/proxy/a/b` → `proxy`), as upstream's RequestInfo. */
export function subresourceOf(info: RequestInfo): string {
  const sub = info.subresource;
  if (sub === '') return sub;
  const slash = sub.indexOf('/');
  return slash < 0 ? sub : sub.slice(0, slash);
}

/**
 * Upstream's cleanVerb(CanonicalVerb(method, scope), …): `method` upper case, `contentType` the
 * request's Content-Type header (APPLY only when it is exactly the apply patch type).
 */
export function reportedVerb(
  method: string,
  scope: string,
  info: RequestInfo,
  contentType: string | undefined,
): string {
  if (info.verb === 'watch') return 'WATCH';
  let verb = method;
  if (verb === 'GET' || verb === 'HEAD') verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  else if (verb === 'PATCH' && contentType === applyPatchType) verb = 'APPLY';
  if (info.isResourceRequest && connectSubresources.has(subresourceOf(info))) verb = 'CONNECT';
  return reportedVerbs.has(verb) ? verb : 'other';
}

/** Upstream cleanDryRun: "" without the parameter, else the sorted distinct values or "invalid". */
export function dryRunOf(url: URL): string {
  if (!url.search.includes('dryRun')) return '';
  const values = url.searchParams.getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return values.length === 0 ? '' : 'All';
}
