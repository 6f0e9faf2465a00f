/**
 * Whether a webhook or a policy (or a binding's narrowing) applies to a request (apiserver v0.27
 * generic/webhook.go ShouldCallHook and validatingadmissionpolicy/matching): namespace and object
 * selectors, resource exclusions, resource rules, and under matchPolicy Equivalent the same
 * resource's other served versions. Selector errors are reported only for requests the rules
 * cover. The answer names the resource and kind matched, at which version the object is shown.
 */
import type { StatusError } from '../../machinery/errors.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { ObjectLookup, ResourceMapper } from '../dependencies.js';
import { namedRuleMatches } from './rules.js';
import {
  matchNamespaceSelector,
  matchObjectSelector,
  parseSelector,
  type ParsedSelector,
} from './selectors.js';
import {
  requestedResource,
  type GroupVersionKind,
  type GroupVersionResource,
} from '../../machinery/admission-attributes.js';

export interface MatchedResource {
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
}

/** The served versions of a resource (upstream EquivalentResourceMapper), the request's included. */
export type EquivalentResources = (a: AdmissionAttributes) => readonly MatchedResource[];

/** The equivalent resources the server's resource mapper knows (none without one). */
export function equivalentsOf(resources: ResourceMapper | undefined): EquivalentResources {
  return (a) =>
    (resources?.versions(a.resource.group, a.resource.resource) ?? []).map((v) => ({
      resource: { group: v.group, version: v.version, resource: v.resource },
      kind: { group: v.group, version: v.version, kind: v.kind },
    }));
}

export interface MatchCriteria {
  readonly namespaceSelector: ParsedSelector;
  readonly objectSelector: ParsedSelector;
  readonly rules: readonly JsonObject[];
  readonly excludeRules: readonly JsonObject[];
  readonly matchPolicy: 'Exact' | 'Equivalent';
  /** Policies: no rules at all means every resource (a binding without resourceRules). */
  readonly emptyRulesMatchAll: boolean;
}

export type MatchOutcome =
  { readonly matches: false; readonly error?: StatusError } | ({ readonly matches: true } & MatchedResource);

function objects(o: JsonObject | undefined, key: string): readonly JsonObject[] {
  const v = o?.[key];
  return Array.isArray(v)
    ? v.filter((x): x is JsonObject => typeof x === 'object' && x !== null && !Array.isArray(x))
    : [];
}

/** Criteria from a webhook or from a policy's/binding's matchResources. */
export function matchCriteria(
  source: JsonObject | undefined,
  options: { readonly rulesKey: 'rules' | 'resourceRules'; readonly emptyRulesMatchAll: boolean },
): MatchCriteria {
  const selector = (k: string): JsonObject | undefined => {
    const v = source?.[k];
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  };
  return {
    namespaceSelector: parseSelector(selector('namespaceSelector')),
    objectSelector: parseSelector(selector('objectSelector')),
    rules: objects(source, options.rulesKey),
    excludeRules: objects(source, 'excludeResourceRules'),
    matchPolicy: source?.['matchPolicy'] === 'Exact' ? 'Exact' : 'Equivalent',
    emptyRulesMatchAll: options.emptyRulesMatchAll,
  };
}

function own(a: AdmissionAttributes): MatchedResource {
  return requestedResource(a);
}

/** The first rule covering the request, then (Equivalent) the first covering an equivalent. */
function matchRules(
  rules: readonly JsonObject[],
  policy: MatchCriteria['matchPolicy'],
  a: AdmissionAttributes,
  equivalents: EquivalentResources,
): MatchedResource | undefined {
  const self = own(a);
  if (rules.some((r) => namedRuleMatches(r, a, self.resource))) return self;
  if (policy !== 'Equivalent') return undefined;
  const others = equivalents(a).filter(
    (e) => e.resource.version !== self.resource.version || e.resource.group !== self.resource.group,
  );
  if (others.length === 0) return undefined;
  for (const rule of rules) {
    for (const e of others) if (namedRuleMatches(rule, a, e.resource)) return e;
  }
  return undefined;
}

export async function matchRequest(
  c: MatchCriteria,
  a: AdmissionAttributes,
  lookup: ObjectLookup,
  equivalents: EquivalentResources,
): Promise<MatchOutcome> {
  const ns = await matchNamespaceSelector(c.namespaceSelector, a, lookup);
  if (!ns.matches && ns.error === undefined) return { matches: false };
  const obj = matchObjectSelector(c.objectSelector, a);
  if (!obj.matches && obj.error === undefined) return { matches: false };
  if (c.excludeRules.length > 0 && matchRules(c.excludeRules, c.matchPolicy, a, equivalents) !== undefined) {
    return { matches: false };
  }
  const matched =
    c.rules.length === 0 && c.emptyRulesMatchAll
      ? own(a)
      : matchRules(c.rules, c.matchPolicy, a, equivalents);
  if (matched === undefined) return { matches: false };
  if (ns.error !== undefined) return { matches: false, error: ns.error };
  if (obj.error !== undefined) return { matches: false, error: obj.error };
  return { matches: true, ...matched };
}
