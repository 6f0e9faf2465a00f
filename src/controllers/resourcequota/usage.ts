/**
 * What a ResourceQuota counts (kube-controller-manager v1.27's quota.CalculateUsage over the
 * evaluators of apis/core/v1/quota, the same ones quota admission charges with): every resource
 * name of spec.hard some evaluator tracks — pods and their compute, Services by kind, claims by
 * storage class, `count/<resource>[.<group>]` of any kind — summed over the namespace's objects
 * that match the quota's scopes, zero when none does. Quantities add exactly.
 */
import { canonicalForm, parseQuantity } from '../../machinery/quantity/quantity.js';
import { objectCountName, quotaEvaluatorFor } from '../../apis/core/v1/quota/evaluators.js';
import type { QuotaEvaluator } from '../../apis/core/v1/quota/evaluators.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';
import { add, count, mask } from '../../apis/core/v1/quota/resource-list.js';
import { quotaScopes } from '../../apis/core/v1/quota/scopes.js';
import type { JsonObject } from '../../util/json.js';
import { obj } from '../util/objects.js';

export { podCountsForQuota as podCounts } from '../../apis/core/v1/quota/evaluators.js';

/** The objects of one namespace the quota counts, by collection (`resource[.group]`). */
export interface NamespaceObjects {
  readonly pods: readonly JsonObject[];
  readonly services: readonly JsonObject[];
  readonly persistentvolumeclaims: readonly JsonObject[];
  /** How many objects other collections (named by `count/...` or a legacy name) hold. */
  readonly counts: ReadonlyMap<string, number>;
}

/** The legacy object-count names and their collection. */
export const legacyCountNames: Readonly<Record<string, string>> = {
  pods: 'pods',
  services: 'services',
  configmaps: 'configmaps',
  secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

/** `count/<resource>[.<group>]` → its collection (`resource[.group]`), else undefined. */
export function countedCollection(name: string): string | undefined {
  if (name in legacyCountNames) return legacyCountNames[name];
  return name.startsWith('count/') ? name.slice('count/'.length) : undefined;
}

/** `resource[.group]` → group and resource. */
export function splitCollection(collection: string): { group: string; resource: string } {
  const dot = collection.indexOf('.');
  return dot < 0
    ? { group: '', resource: collection }
    : { group: collection.slice(dot + 1), resource: collection.slice(0, dot) };
}

const specialCollections = new Set(['pods', 'services', 'persistentvolumeclaims']);

/** status.used for `quota` over `objects`: one entry per tracked name of spec.hard. */
export function quotaUsage(
  quota: JsonObject,
  objects: NamespaceObjects,
  nowMs: number,
): Record<string, string> {
  const hard = Object.keys(obj(obj(quota['spec'])['hard']));
  const scopes = quotaScopes(quota);
  const matches = (e: QuotaEvaluator, o: JsonObject): boolean => scopes.every((s) => e.matchesScope(s, o));
  let used: ResourceList = new Map();
  const sumOver = (e: QuotaEvaluator, items: readonly JsonObject[]): void => {
    const tracked = e.matchingResources(hard);
    if (tracked.length === 0) return;
    let sum: ResourceList = new Map(tracked.map((n) => [n, count(0)]));
    for (const o of items) if (matches(e, o)) sum = add(sum, e.usage(o, nowMs));
    used = add(used, mask(sum, tracked));
  };
  sumOver(quotaEvaluatorFor('', 'pods'), objects.pods);
  sumOver(quotaEvaluatorFor('', 'services'), objects.services);
  sumOver(quotaEvaluatorFor('', 'persistentvolumeclaims'), objects.persistentvolumeclaims);
  // Other kinds: one per object, and no object matches a scope.
  const others = new Set<string>();
  for (const name of hard) {
    const collection = countedCollection(name);
    if (collection !== undefined && !specialCollections.has(collection)) others.add(collection);
  }
  for (const collection of others) {
    const { group, resource } = splitCollection(collection);
    const e = quotaEvaluatorFor(group, resource);
    const tracked = e.matchingResources(hard);
    const n = scopes.length > 0 ? 0 : (objects.counts.get(collection) ?? 0);
    used = add(used, new Map(tracked.map((name) => [name, count(n)])));
  }
  // Keys in order, as Go marshals a ResourceList.
  const out: Record<string, string> = {};
  for (const name of [...hard].sort()) {
    const q = used.get(name);
    if (q !== undefined) out[name] = canonicalForm(q);
  }
  return out;
}

/** status.hard: spec.hard in canonical form. */
export function canonicalHard(quota: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  const hard = obj(obj(quota['spec'])['hard']);
  for (const k of Object.keys(hard).sort()) {
    const v = hard[k];
    try {
      out[k] = canonicalForm(
        parseQuantity(typeof v === 'number' ? String(v) : typeof v === 'string' ? v : ''),
      );
    } catch {
      out[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
  return out;
}

export { objectCountName };
