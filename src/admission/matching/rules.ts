/**
 * Whether one admission rule covers a request (apiserver v0.27
 * pkg/admission/plugin/webhook/predicates/rules): scope, operation, API group, version, and
 * `resource/subresource` with `*` wildcards on either side. Rules with resourceNames (policy
 * NamedRuleWithOperations) also need the request's name among them.
 */
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { GroupVersionResource } from '../../machinery/admission-attributes.js';

function strings(o: JsonObject, key: string): readonly string[] {
  const v = o[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function exactOrWildcard(items: readonly string[], requested: string): boolean {
  return items.some((i) => i === '*' || i === requested);
}

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces';
}

function scopeMatches(rule: JsonObject, a: AdmissionAttributes, r: GroupVersionResource): boolean {
  const scope = rule['scope'];
  if (scope === undefined || scope === null || scope === '*') return true;
  if (scope === 'Namespaced') return !isNamespaceResource(r) && a.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(r) || a.namespace === '';
  return false;
}

function resourceMatches(rule: JsonObject, resource: string, subresource: string): boolean {
  for (const item of strings(rule, 'resources')) {
    const slash = item.indexOf('/');
    const res = slash < 0 ? item : item.slice(0, slash);
    const sub = slash < 0 ? '' : item.slice(slash + 1);
    if ((res === '*' || res === resource) && (sub === '*' || sub === subresource)) return true;
  }
  return false;
}

/** rules.Matcher.Matches against `r` (the request's resource unless an equivalent is tried). */
export function ruleMatches(rule: JsonObject, a: AdmissionAttributes, r: GroupVersionResource): boolean {
  return (
    scopeMatches(rule, a, r) &&
    strings(rule, 'operations').some((op) => op === '*' || op === a.operation) &&
    exactOrWildcard(strings(rule, 'apiGroups'), r.group) &&
    exactOrWildcard(strings(rule, 'apiVersions'), r.version) &&
    resourceMatches(rule, r.resource, a.subresource)
  );
}

/** A named rule: the rule, and the request's name among resourceNames when there are any. */
export function namedRuleMatches(rule: JsonObject, a: AdmissionAttributes, r: GroupVersionResource): boolean {
  if (!ruleMatches(rule, a, r)) return false;
  const names = strings(rule, 'resourceNames');
  return names.length === 0 || names.includes(a.name);
}
