/**
 * Parses a request path and method into what upstream calls RequestInfo: API prefix, group,
 * version, namespace, resource, subresource, name and verb.
 */

export type Verb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | '';

export interface RequestInfo {
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** 'api' (core) or 'apis'. */
  readonly apiPrefix: string;
  readonly group: string;
  readonly version: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly verb: Verb;
  /** HTTP method lower-cased (for non-resource requests). */
  readonly method: string;
}

function decodedOrRaw(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function truthy(v: string | null): boolean {
  return v !== null && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** `path` is the decoded request path (default: the URL's path, decoded where it can be). */
export function parseRequestInfo(method: string, url: URL, path = decodedOrRaw(url.pathname)): RequestInfo {
  const parts = path.split('/').filter((p) => p.length > 0);
  const base = {
    isResourceRequest: false,
    path,
    apiPrefix: '',
    group: '',
    version: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    verb: '' as Verb,
    method: method.toLowerCase(),
  };
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return base;
  let i = 1;
  let group = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return { ...base, apiPrefix: prefix, group: parts[1] ?? '' };
    group = parts[1]!;
    i = 2;
  } else if (parts.length < 2) {
    return { ...base, apiPrefix: prefix };
  }
  const version = parts[i++]!;
  let rest = parts.slice(i);
  let isWatchPath = false;
  if (rest[0] === 'watch') {
    isWatchPath = true;
    rest = rest.slice(1);
  }
  if (rest.length === 0) return { ...base, apiPrefix: prefix, group, version };
  let namespace = '';
  // /namespaces/{ns}/{resource}... ; /namespaces/{name} is the namespace resource itself.
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    namespace = rest[1]!;
    const sub = rest[2];
    if (sub !== undefined && sub !== 'status' && sub !== 'finalize') rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  const subresource = rest.slice(2).join('/');
  const m = method.toUpperCase();
  let verb: Verb = '';
  switch (m) {
    case 'GET':
    case 'HEAD':
      if (isWatchPath || truthy(url.searchParams.get('watch'))) verb = 'watch';
      else verb = name === '' ? 'list' : 'get';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name === '' ? 'deletecollection' : 'delete';
      break;
  }
  return {
    ...base,
    isResourceRequest: true,
    apiPrefix: prefix,
    group,
    version,
    namespace,
    resource,
    subresource,
    name,
    verb,
  };
}

const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** Watches and streaming subresources (upstream BasicLongRunningRequestCheck). */
export function isLongRunning(info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  return info.verb === 'watch' || longRunningSubresources.has(info.subresource.split('/', 1)[0] ?? '');
}
