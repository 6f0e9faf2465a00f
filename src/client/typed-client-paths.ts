/** URL paths and query strings of the typed clients (client-go's rest.Request path building). */
import type { ResourceDescription } from './typed-client-resource.js';

export interface PathParts {
  /** Required for a namespaced resource's object; absent for every namespace (lists, watches). */
  readonly namespace?: string | undefined;
  readonly name?: string | undefined;
  readonly subresource?: string | undefined;
}

/**
 * `/api/v1/namespaces/ns/pods/name/status`, `/apis/apps/v1/deployments`, ... Throws a TypeError
 * for a namespace on a cluster-scoped resource, and for an object of a namespaced one without
 * its namespace (programming errors, not API errors).
 */
export function resourcePath(r: ResourceDescription, p: PathParts = {}): string {
  const namespace = p.namespace === '' ? undefined : p.namespace;
  if (!r.namespaced && namespace !== undefined) {
    throw new TypeError(`${r.resource} is cluster-scoped: no namespace (got ${namespace})`);
  }
  if (r.namespaced && namespace === undefined && p.name !== undefined) {
    throw new TypeError(`${r.resource} is namespaced: ${p.name} needs a namespace`);
  }
  if (p.subresource !== undefined && p.name === undefined) {
    throw new TypeError(`${r.resource}/${p.subresource}: a subresource needs an object name`);
  }
  const enc = encodeURIComponent;
  let path = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  if (namespace !== undefined) path += `/namespaces/${enc(namespace)}`;
  path += `/${r.resource}`;
  if (p.name !== undefined) {
    if (p.name === '') throw new TypeError(`${r.resource}: an empty object name`);
    path += `/${enc(p.name)}`;
  }
  if (p.subresource !== undefined) path += `/${enc(p.subresource)}`;
  return path;
}

/** `?a=1&b=x` of the defined parameters, in the given order ('' when none). */
export function queryString(params: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
