/**
 * RBAC policy rules as the authorizer and the registry read them (upstream pkg/apis/rbac/v1
 * evaluation_helpers.go): typed views of stored roles and bindings, whether a rule allows a
 * request, and a rule's compact text for error messages.
 */
import { goQuote } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonValue } from '../../../util/json.js';

export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

/** A Role or ClusterRole as far as authorization cares. */
export interface RoleView {
  readonly name: string;
  readonly namespace: string;
  readonly rules: readonly PolicyRule[];
}

/** A RoleBinding or ClusterRoleBinding as far as authorization cares. */
export interface BindingView {
  readonly name: string;
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly Subject[];
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

export function policyRuleOf(v: JsonValue): PolicyRule {
  const o = isJsonObject(v) ? v : {};
  return {
    verbs: strings(o['verbs']),
    apiGroups: strings(o['apiGroups']),
    resources: strings(o['resources']),
    resourceNames: strings(o['resourceNames']),
    nonResourceURLs: strings(o['nonResourceURLs']),
  };
}

export function policyRulesOf(v: JsonValue | undefined): PolicyRule[] {
  return Array.isArray(v) ? v.map(policyRuleOf) : [];
}

/** The JSON of a rule as the API writes it (empty lists omitted, verbs always). */
export function policyRuleJson(r: PolicyRule): Record<string, string[]> {
  return {
    verbs: [...r.verbs],
    ...(r.apiGroups.length > 0 ? { apiGroups: [...r.apiGroups] } : {}),
    ...(r.resources.length > 0 ? { resources: [...r.resources] } : {}),
    ...(r.resourceNames.length > 0 ? { resourceNames: [...r.resourceNames] } : {}),
    ...(r.nonResourceURLs.length > 0 ? { nonResourceURLs: [...r.nonResourceURLs] } : {}),
  };
}

export function roleViewOf(o: KubeObject): RoleView {
  return {
    name: o.metadata.name ?? '',
    namespace: o.metadata.namespace ?? '',
    rules: policyRulesOf(o['rules']),
  };
}

export function bindingViewOf(o: KubeObject): BindingView {
  const ref = isJsonObject(o['roleRef']) ? o['roleRef'] : {};
  const subjects = Array.isArray(o['subjects']) ? o['subjects'] : [];
  return {
    name: o.metadata.name ?? '',
    namespace: o.metadata.namespace ?? '',
    roleRef: { apiGroup: str(ref['apiGroup']), kind: str(ref['kind']), name: str(ref['name']) },
    subjects: subjects.filter(isJsonObject).map((s) => ({
      kind: str(s['kind']),
      name: str(s['name']),
      namespace: str(s['namespace']),
    })),
  };
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.some((g) => g === '*' || g === group);
}

/** `combined` is `resource` or `resource/subresource`; a rule resource `*`, or `*` + `/subresource`, matches too. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources) {
    if (r === '*' || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
}

/** An exact URL, `*`, or a prefix ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** What a request asks, for rule matching. */
export interface RuleRequest {
  readonly isResourceRequest: boolean;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly path: string;
}

/** Upstream RuleAllows. */
export function ruleAllows(req: RuleRequest, rule: PolicyRule): boolean {
  if (req.isResourceRequest) {
    const combined = req.subresource === '' ? req.resource : `${req.resource}/${req.subresource}`;
    return (
      verbMatches(rule, req.verb) &&
      apiGroupMatches(rule, req.apiGroup) &&
      resourceMatches(rule, combined, req.subresource) &&
      resourceNameMatches(rule, req.name)
    );
  }
  return verbMatches(rule, req.verb) && nonResourceURLMatches(rule, req.path);
}

const goStrings = (l: readonly string[]): string => `[${l.map(goQuote).join(' ')}]`;

/** Upstream CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups.length > 0) parts.push(`APIGroups:${goStrings(r.apiGroups)}`);
  if (r.resources.length > 0) parts.push(`Resources:${goStrings(r.resources)}`);
  if (r.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${goStrings(r.nonResourceURLs)}`);
  if (r.resourceNames.length > 0) parts.push(`ResourceNames:${goStrings(r.resourceNames)}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goStrings(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Go's %q of a []string (`["a" "b"]`). */
export function goQuotedList(l: readonly string[]): string {
  return goStrings(l);
}

/** serviceaccount.MatchesUsername: `system:serviceaccount:<namespace>:<name>`. */
export function matchesServiceAccount(namespace: string, name: string, username: string): boolean {
  return username === `system:serviceaccount:${namespace}:${name}`;
}
