/**
 * What a ResourceQuota counts (kube-controller-manager v1.27's quota evaluators, pkg/quota/v1/
 * evaluator/core): object counts (`pods`, `services`, `count/<resource>[.<group>]`, ...), pod
 * compute (`requests.cpu`/`cpu`, `limits.memory`, extended `requests.<name>`, with init-container
 * maxima and overhead), Service kinds (`services.loadbalancers`, `services.nodeports`) and
 * PersistentVolumeClaim storage (`requests.storage`, per storage class). Scopes and scope
 * selectors decide which pods count. Quantities add exactly; the first addend keeps its format.
 */
import { canonicalForm, parseQuantity } from '../../machinery/quantity/quantity.js';
import type { Quantity } from '../../machinery/quantity/quantity.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { arr, meta, obj, str } from '../util/objects.js';

/** Adds two quantities exactly; a zero left side takes the right side's format (as upstream). */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const e = Math.min(a.exponent, b.exponent);
  const mantissa = a.mantissa * 10n ** BigInt(a.exponent - e) + b.mantissa * 10n ** BigInt(b.exponent - e);
  return { mantissa, exponent: e, format: a.mantissa === 0n ? b.format : a.format };
}

export const zeroQuantity: Quantity = { mantissa: 0n, exponent: 0, format: 'DecimalSI' };

function quantityOf(v: JsonValue | undefined): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return parseQuantity(String(v));
  } catch {
    return undefined;
  }
}

export type Usage = Map<string, Quantity>;

function addTo(usage: Usage, key: string, q: Quantity): void {
  const cur = usage.get(key);
  usage.set(key, cur === undefined ? q : addQuantity(cur, q));
}

function count(n: number): Quantity {
  return { mantissa: BigInt(n), exponent: 0, format: 'DecimalSI' };
}

/** A pod in a terminal phase, or past its deletion grace, no longer counts (QuotaV1Pod). */
export function podCounts(pod: JsonObject, nowMs: number): boolean {
  const phase = str(obj(pod['status'])['phase']);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const m = meta(pod);
  const deletion = typeof m['deletionTimestamp'] === 'string' ? Date.parse(m['deletionTimestamp']) : NaN;
  if (!Number.isNaN(deletion)) {
    const grace = typeof m['deletionGracePeriodSeconds'] === 'number' ? m['deletionGracePeriodSeconds'] : 0;
    if (nowMs > deletion + grace * 1000) return false;
  }
  return true;
}

/** Requests or limits of a pod: max(sum of containers, each init container) plus overhead. */
function podResources(pod: JsonObject, which: 'requests' | 'limits'): Map<string, Quantity> {
  const spec = obj(pod['spec']);
  const sum = new Map<string, Quantity>();
  for (const c of arr(spec['containers'])) {
    for (const [k, v] of Object.entries(obj(obj(obj(c)['resources'])[which]))) {
      const q = quantityOf(v);
      if (q !== undefined) addTo(sum, k, q);
    }
  }
  for (const c of arr(spec['initContainers'])) {
    for (const [k, v] of Object.entries(obj(obj(obj(c)['resources'])[which]))) {
      const q = quantityOf(v);
      if (q === undefined) continue;
      const cur = sum.get(k);
      if (cur === undefined || compare(q, cur) > 0) sum.set(k, q);
    }
  }
  for (const [k, v] of Object.entries(obj(spec['overhead']))) {
    const q = quantityOf(v);
    if (q !== undefined && sum.has(k)) addTo(sum, k, q);
  }
  return sum;
}

function compare(a: Quantity, b: Quantity): number {
  const e = Math.min(a.exponent, b.exponent);
  const am = a.mantissa * 10n ** BigInt(a.exponent - e);
  const bm = b.mantissa * 10n ** BigInt(b.exponent - e);
  return am < bm ? -1 : am > bm ? 1 : 0;
}

function isBestEffort(pod: JsonObject): boolean {
  return str(obj(pod['status'])['qosClass']) === 'BestEffort';
}

function isTerminating(pod: JsonObject): boolean {
  return typeof obj(pod['spec'])['activeDeadlineSeconds'] === 'number';
}

/** Whether `pod` is in every scope and matches the scope selector of `quota`. */
export function podInScopes(quota: JsonObject, pod: JsonObject): boolean {
  const spec = obj(quota['spec']);
  const scopes = arr(spec['scopes']).filter((s): s is string => typeof s === 'string');
  const checks: { scope: string; operator: string; values: string[] }[] = scopes.map((scope) => ({
    scope,
    operator: 'Exists',
    values: [],
  }));
  for (const e of arr(obj(spec['scopeSelector'])['matchExpressions'])) {
    if (!isJsonObject(e)) continue;
    checks.push({
      scope: str(e['scopeName']),
      operator: str(e['operator']),
      values: arr(e['values']).filter((v): v is string => typeof v === 'string'),
    });
  }
  return checks.every((c) => {
    switch (c.scope) {
      case 'Terminating':
        return isTerminating(pod);
      case 'NotTerminating':
        return !isTerminating(pod);
      case 'BestEffort':
        return isBestEffort(pod);
      case 'NotBestEffort':
        return !isBestEffort(pod);
      case 'PriorityClass': {
        const pc = str(obj(pod['spec'])['priorityClassName']);
        if (c.operator === 'Exists') return pc !== '';
        if (c.operator === 'DoesNotExist') return pc === '';
        if (c.operator === 'In') return c.values.includes(pc);
        if (c.operator === 'NotIn') return !c.values.includes(pc);
        return false;
      }
      case 'CrossNamespacePodAffinity': {
        const hasCrossNs = ['podAffinity', 'podAntiAffinity'].some((k) => {
          const a = obj(obj(obj(pod['spec'])['affinity'])[k]);
          const terms = [
            ...arr(a['requiredDuringSchedulingIgnoredDuringExecution']),
            ...arr(a['preferredDuringSchedulingIgnoredDuringExecution']).map(
              (w) => obj(w)['podAffinityTerm'],
            ),
          ];
          return terms.some(
            (t) => arr(obj(t)['namespaces']).length > 0 || isJsonObject(obj(t)['namespaceSelector']),
          );
        });
        return hasCrossNs;
      }
      default:
        return false;
    }
  });
}

/** Kinds quota scopes apply to: only pods are scoped; other objects never match a scoped quota. */
export function quotaHasScopes(quota: JsonObject): boolean {
  const spec = obj(quota['spec']);
  return arr(spec['scopes']).length > 0 || arr(obj(spec['scopeSelector'])['matchExpressions']).length > 0;
}

/** The objects of one namespace the quota counts, by collection (resource[.group]). */
export interface NamespaceObjects {
  readonly pods: readonly JsonObject[];
  readonly services: readonly JsonObject[];
  readonly persistentvolumeclaims: readonly JsonObject[];
  /** Other collections named by `count/<resource>[.<group>]` or the legacy names. */
  readonly counts: ReadonlyMap<string, number>;
}

/** The legacy object-count names and their `count/...` collection. */
export const legacyCountNames: Readonly<Record<string, string>> = {
  pods: 'pods',
  services: 'services',
  configmaps: 'configmaps',
  secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

/** status.used for `quota` over `objects` (only the resources in spec.hard). */
export function quotaUsage(
  quota: JsonObject,
  objects: NamespaceObjects,
  nowMs: number,
): Record<string, string> {
  const hard = obj(obj(quota['spec'])['hard']);
  const scoped = quotaHasScopes(quota);
  const pods = objects.pods.filter((p) => podCounts(p, nowMs) && (!scoped || podInScopes(quota, p)));
  const usage: Usage = new Map();
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  for (const pod of pods) {
    for (const [k, q] of podResources(pod, 'requests')) addTo(requests, k, q);
    for (const [k, q] of podResources(pod, 'limits')) addTo(limits, k, q);
  }
  for (const name of Object.keys(hard)) {
    const countOf = (collection: string): number => {
      if (collection === 'pods') return pods.length;
      if (scoped) return 0;
      if (collection === 'services') return objects.services.length;
      if (collection === 'persistentvolumeclaims') return objects.persistentvolumeclaims.length;
      return objects.counts.get(collection) ?? 0;
    };
    if (name in legacyCountNames) usage.set(name, count(countOf(legacyCountNames[name]!)));
    else if (name.startsWith('count/')) usage.set(name, count(countOf(name.slice('count/'.length))));
    else if (name === 'services.loadbalancers' || name === 'services.nodeports') {
      if (scoped) continue;
      let n = 0;
      for (const s of objects.services) {
        const spec = obj(s['spec']);
        const type = str(spec['type']);
        if (name === 'services.loadbalancers' && type === 'LoadBalancer') n++;
        if (name === 'services.nodeports' && (type === 'NodePort' || type === 'LoadBalancer')) {
          n += arr(spec['ports']).filter((p) => typeof obj(p)['nodePort'] === 'number').length;
        }
      }
      usage.set(name, count(n));
    } else if (
      name === 'requests.storage' ||
      name.endsWith('.storageclass.storage.k8s.io/requests.storage')
    ) {
      if (scoped) continue;
      const cls = name === 'requests.storage' ? undefined : name.slice(0, name.indexOf('.storageclass.'));
      let total = zeroQuantity;
      for (const pvc of objects.persistentvolumeclaims) {
        const spec = obj(pvc['spec']);
        if (cls !== undefined && str(spec['storageClassName']) !== cls) continue;
        const q = quantityOf(obj(obj(spec['resources'])['requests'])['storage']);
        if (q !== undefined) total = addQuantity(total, q);
      }
      usage.set(name, total);
    } else if (name.endsWith('.storageclass.storage.k8s.io/persistentvolumeclaims')) {
      if (scoped) continue;
      const cls = name.slice(0, name.indexOf('.storageclass.'));
      usage.set(
        name,
        count(
          objects.persistentvolumeclaims.filter((p) => str(obj(p['spec'])['storageClassName']) === cls)
            .length,
        ),
      );
    } else {
      // Compute: `cpu` and `memory` (and `ephemeral-storage`) mean requests.
      const [kind, resource] = name.startsWith('limits.')
        ? ['limits', name.slice('limits.'.length)]
        : name.startsWith('requests.')
          ? ['requests', name.slice('requests.'.length)]
          : ['requests', name];
      usage.set(name, (kind === 'limits' ? limits : requests).get(resource) ?? zeroQuantity);
    }
  }
  const out: Record<string, string> = {};
  for (const name of Object.keys(hard)) out[name] = canonicalForm(usage.get(name) ?? zeroQuantity);
  return out;
}

/** status.hard: spec.hard in canonical form. */
export function canonicalHard(quota: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(obj(quota['spec'])['hard']))) {
    const q = quantityOf(v);
    out[k] = q !== undefined ? canonicalForm(q) : typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}
