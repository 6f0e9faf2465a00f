/**
 * upstream CheckRequest (k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go): what
 * one write does to the namespace's quotas. It returns the quotas with the write's usage added, or
 * throws the refusal: a constraint a matching quota sets, a quota whose usage is not computed
 * yet, usage over `hard`, or limited resources no quota covers.
 */
import type { KubeObject } from '../../machinery/object.js';
import { plainError } from '../plain-error.js';
import type { QuotaEvaluator } from '../../apis/core/v1/quota/evaluators.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';
import {
  add,
  lessThanOrEqual,
  mask,
  negativeNames,
  prettyPrint,
  removeZeros,
  resourceListOf,
  subtract,
  subtractNonNegative,
  toJson,
} from '../../apis/core/v1/quota/resource-list.js';
import { formatScopes, quotaScopes } from '../../apis/core/v1/quota/scopes.js';
import type { ScopeRequirement } from '../../apis/core/v1/quota/scopes.js';
import { isJsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import { forbidden } from '../errors.js';
import type { LimitedResource } from './config.js';

export interface CheckContext {
  readonly evaluator: QuotaEvaluator;
  readonly limited: readonly LimitedResource[];
  readonly features: { enabled(name: string): boolean };
  readonly nowMs: number;
}

function statusList(quota: KubeObject, field: 'hard' | 'used'): ResourceList {
  const status = quota['status'];
  return resourceListOf(isJsonObject(status) ? status[field] : undefined);
}

function withUsed(quota: KubeObject, used: ResourceList): KubeObject {
  const status = isJsonObject(quota['status']) ? quota['status'] : {};
  return { ...quota, status: { ...status, used: toJson(used) } };
}

function sortedNames(names: Iterable<string>): string {
  return [...new Set(names)].sort().join(',');
}

/** The usage the written object adds (for an update, beyond the stored one's). */
function deltaUsage(a: AdmissionAttributes, c: CheckContext, object: KubeObject): ResourceList {
  let delta = c.evaluator.usage(object, c.nowMs);
  const negative = negativeNames(delta);
  if (negative.length > 0) {
    throw forbidden(a, `quota usage is negative for resource(s): ${sortedNames(negative)}`);
  }
  if (a.operation === 'UPDATE') {
    const prev = a.oldObject;
    if (prev === undefined) {
      throw forbidden(a, 'unable to get previous usage since prior version of object was not found');
    }
    if ((prev.metadata.resourceVersion ?? '') !== '') {
      const prevUsage = c.evaluator.usage(prev, c.nowMs);
      const pods = a.resource.group === '' && a.resource.resource === 'pods';
      delta =
        pods && c.features.enabled('InPlacePodVerticalScaling')
          ? subtract(delta, prevUsage)
          : subtractNonNegative(delta, prevUsage);
    }
  }
  return removeZeros(delta);
}

/** Names of usage the configuration says must be covered (limitedByDefault). */
function limitedNames(usage: ResourceList, limited: readonly LimitedResource[]): string[] {
  const out: string[] = [];
  for (const [name, q] of usage) {
    if (q.mantissa === 0n) continue;
    if (limited.some((l) => l.matchContains.some((s) => name.includes(s)))) out.push(name);
  }
  return out;
}

/**
 * The quotas after this write, the same array when it changes none; throws a StatusError to deny.
 */
export function checkRequest(
  quotas: readonly KubeObject[],
  a: AdmissionAttributes,
  c: CheckContext,
): readonly KubeObject[] {
  const object = a.object;
  if (object === undefined) return quotas;
  const limited = c.limited.filter(
    (l) => l.apiGroup === a.resource.group && l.resource === a.resource.resource,
  );
  const limitedScopes: ScopeRequirement[] = [];
  for (const l of limited) {
    for (const s of l.matchScopes) if (c.evaluator.matchesScope(s, object)) limitedScopes.push(s);
  }
  const limitedResourceNames =
    limited.length > 0 ? limitedNames(c.evaluator.usage(object, c.nowMs), limited) : [];

  const interesting: number[] = [];
  const restricted = new Set<string>();
  const restrictedScopes: ScopeRequirement[] = [];
  for (const [i, quota] of quotas.entries()) {
    const scopes = quotaScopes(quota);
    for (const s of scopes) if (c.evaluator.matchesScope(s, object)) restrictedScopes.push(s);
    const hardNames = [...statusList(quota, 'hard').keys()];
    const matching = c.evaluator.matchingResources(hardNames);
    const matches = matching.length > 0 && scopes.every((s) => c.evaluator.matchesScope(s, object));
    if (!matches) continue;
    const name = quota.metadata.name ?? '';
    const constraint = c.evaluator.constraints(matching, object);
    if (constraint !== undefined) throw forbidden(a, `failed quota: ${name}: ${constraint}`);
    const used = statusList(quota, 'used');
    if (!matching.every((n) => used.has(n))) {
      throw forbidden(a, `status unknown for quota: ${name}, resources: ${sortedNames(matching)}`);
    }
    interesting.push(i);
    for (const n of matching) restricted.add(n);
  }

  const delta = deltaUsage(a, c, object);
  if (delta.size === 0) return quotas;

  const uncovered = limitedResourceNames.filter((n) => !restricted.has(n));
  if (uncovered.length > 0) {
    throw forbidden(a, `insufficient quota to consume: ${sortedNames(uncovered)}`);
  }
  // A limited scope is covered by any quota whose selectors on that scope match the object
  // (upstream's UncoveredQuotaScopes compares scope names only).
  const uncoveredScopes = limitedScopes.filter(
    (s) => !restrictedScopes.some((r) => r.scopeName === s.scopeName),
  );
  if (uncoveredScopes.length > 0) {
    // A plain error upstream (not an API status): the answer is a 500 with its bare text.
    throw plainError(`insufficient quota to match these scopes: ${formatScopes(uncoveredScopes)}`);
  }
  if (interesting.length === 0) return quotas;

  const out = [...quotas];
  for (const i of interesting) {
    const quota = out[i]!;
    const hard = statusList(quota, 'hard');
    const used = statusList(quota, 'used');
    const requested = mask(delta, hard.keys());
    const newUsage = add(used, requested);
    const masked = mask(newUsage, requested.keys());
    const { ok, exceeded } = lessThanOrEqual(masked, hard);
    if (!ok) {
      throw forbidden(
        a,
        `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
      );
    }
    out[i] = withUsed(quota, newUsage);
  }
  return out;
}
