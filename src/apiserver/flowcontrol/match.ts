/**
 * Which FlowSchema a request matches (upstream pkg/util/flowcontrol/rule.go): a rule matches when
 * one of its subjects is the user (User by name, Group by membership, ServiceAccount by namespace
 * and name, `*` for any) and, for a resource request, one of its resource rules (verbs, apiGroups,
 * resources with `resource/subresource`, clusterScope for cluster-scoped requests, namespaces),
 * otherwise one of its non-resource rules (verbs, URLs with `/prefix/*` wildcards).
 */
import type { UserInfo } from '../../machinery/user.js';
import type { RequestInfo } from '../request-info.js';
import type { FlowSchemaDigest, NonResourceRule, ResourceRule, Subject } from './types.js';

const all = '*';
const serviceAccountPrefix = 'system:serviceaccount:';

/** A lone `*` matches anything; otherwise the value must be listed. */
function contains(x: string, list: readonly string[]): boolean {
  if (list.length === 1 && list[0] === all) return true;
  return list.includes(x);
}

function matchesSubject(user: UserInfo, s: Subject): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === all || s.name === user.name;
    case 'Group':
      return s.name === all || user.groups.includes(s.name);
    case 'ServiceAccount': {
      if (s.name === all) {
        // Upstream checks the prefix and then the namespace as a prefix before ':'.
        if (!user.name.startsWith(serviceAccountPrefix)) return false;
        const rest = user.name.slice(serviceAccountPrefix.length);
        return rest.startsWith(s.namespace) && rest.slice(s.namespace.length).startsWith(':');
      }
      return user.name === `${serviceAccountPrefix}${s.namespace}:${s.name}`;
    }
  }
}

function matchesResourceRule(info: RequestInfo, r: ResourceRule): boolean {
  if (!contains(info.verb, r.verbs)) return false;
  const resource = info.subresource !== '' ? `${info.resource}/${info.subresource}` : info.resource;
  if (!contains(resource, r.resources)) return false;
  if (!contains(info.group, r.apiGroups)) return false;
  if (info.namespace === '') return r.clusterScope;
  return contains(info.namespace, r.namespaces);
}

function matchesURL(urls: readonly string[], path: string): boolean {
  for (const rule of urls) {
    if (rule === all || rule === path) return true;
    let prefix = rule.endsWith('*') ? rule.slice(0, -1) : rule;
    if (!prefix.endsWith('/')) prefix += '/';
    if (path.startsWith(prefix)) return true;
  }
  return false;
}

function matchesNonResourceRule(info: RequestInfo, r: NonResourceRule): boolean {
  return contains(info.method, r.verbs) && matchesURL(r.nonResourceURLs, info.path);
}

export function matchesFlowSchema(fs: FlowSchemaDigest, info: RequestInfo, user: UserInfo): boolean {
  return fs.rules.some(
    (rule) =>
      rule.subjects.some((s) => matchesSubject(user, s)) &&
      (info.isResourceRequest
        ? rule.resourceRules.some((r) => matchesResourceRule(info, r))
        : rule.nonResourceRules.some((r) => matchesNonResourceRule(info, r))),
  );
}

/** Upstream's FlowSchemaSequence order: matchingPrecedence, then name. */
export function compareFlowSchemas(a: FlowSchemaDigest, b: FlowSchemaDigest): number {
  if (a.matchingPrecedence !== b.matchingPrecedence) return a.matchingPrecedence - b.matchingPrecedence;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
