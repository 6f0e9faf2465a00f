/**
 * ResourceQuota evaluators (upstream pkg/quota/v1/evaluator/core and generic): for one kind, which
 * operations can change usage, which quota resource names it accounts for, the usage one object
 * makes, the scopes it matches, and pods' old constraint that a quota on cpu or memory needs
 * every container to state them. The quota admission plugin charges with them; kinds without an
 * evaluator of their own are counted as `count/<resource>.<group>`.
 */
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import type { ResourceList } from './resource-list.js';
import { add, count, maxInto, quantityOf, resourceListOf } from './resource-list.js';
import { podMatchesScope } from './scopes.js';
import type { ScopeRequirement } from './scopes.js';

export interface QuotaEvaluator {
  /** Whether a write of this operation can change usage (upstream Evaluator.Handles). */
  handles(operation: string, features: { enabled(name: string): boolean }): boolean;
  /** The names of `names` this evaluator accounts for. */
  matchingResources(names: readonly string[]): string[];
  /** Whether the object matches one scope requirement (only pods have scopes). */
  matchesScope(req: ScopeRequirement, obj: JsonObject): boolean;
  /** The usage one object makes. */
  usage(obj: JsonObject, nowMs: number): ResourceList;
  /** An error text when the object fails the evaluator's constraints for `required`. */
  constraints(required: readonly string[], obj: JsonObject): string | undefined;
}

function arr(v: JsonValue | undefined): JsonValue[] {
  return Array.isArray(v) ? v : [];
}

function objOf(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

/** A JSON string, or '' for anything else. */
function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** The core kinds whose bare plural was a quota name before `count/` existed. */
const legacyCountAliases: ReadonlySet<string> = new Set([
  'configmaps',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'services',
  'pods',
]);

/** generic.NewObjectCountEvaluator: one per object, counted on create, no scopes. */
function objectCountEvaluator(group: string, resource: string): QuotaEvaluator {
  const names = new Set([objectCountName(group, resource)]);
  if (group === '' && legacyCountAliases.has(resource) && resource !== 'pods') names.add(resource);
  return {
    handles: (op) => op === 'CREATE',
    matchingResources: (input) => input.filter((n) => names.has(n)),
    matchesScope: () => false,
    usage: () => new Map([...names].map((n) => [n, count(1)])),
    constraints: () => undefined,
  };
}

// ---- pods ----

/** Compute names pods are charged by; `requests.`-prefixed extended and hugepage names match too. */
const podComputeNames: ReadonlySet<string> = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);
const podResourceNames: ReadonlySet<string> = new Set(['pods', 'count/pods', ...podComputeNames]);

function isExtendedOrHugePages(name: string): boolean {
  // requests.hugepages-2Mi, requests.nvidia.com/gpu (extended: a domain-qualified name).
  if (!name.startsWith('requests.')) return false;
  const rest = name.slice('requests.'.length);
  return rest.startsWith('hugepages-') || (rest.includes('/') && !rest.startsWith('kubernetes.io/'));
}

function podMatchesName(name: string): boolean {
  return podResourceNames.has(name) || isExtendedOrHugePages(name);
}

/** upstream QuotaV1Pod: pods past a terminal phase or their deletion grace no longer count. */
export function podCountsForQuota(pod: JsonObject, nowMs: number): boolean {
  const phase = objOf(pod['status'])['phase'];
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const meta = objOf(pod['metadata']);
  const deletion = meta['deletionTimestamp'];
  if (typeof deletion === 'string') {
    const grace =
      typeof meta['deletionGracePeriodSeconds'] === 'number' ? meta['deletionGracePeriodSeconds'] : 0;
    if (nowMs > Date.parse(deletion) + grace * 1000) return false;
  }
  return true;
}

/** resourcehelper.PodRequests/PodLimits: containers summed, init containers' maxima, then overhead. */
export function podResources(pod: JsonObject, which: 'requests' | 'limits'): ResourceList {
  const spec = objOf(pod['spec']);
  let sum: ResourceList = new Map();
  for (const c of arr(spec['containers'])) {
    sum = add(sum, resourceListOf(objOf(objOf(c)['resources'])[which]));
  }
  for (const c of arr(spec['initContainers'])) {
    maxInto(sum, resourceListOf(objOf(objOf(c)['resources'])[which]));
  }
  const overhead = resourceListOf(spec['overhead']);
  if (overhead.size > 0) {
    if (which === 'requests') sum = add(sum, overhead);
    else {
      // Limits get overhead only for resources that have a limit.
      for (const [k, q] of overhead) if (sum.has(k)) sum = add(sum, new Map([[k, q]]));
    }
  }
  return sum;
}

/** podComputeUsageHelper: `pods` plus the compute names of requests and limits. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', count(1)]]);
  for (const [k, q] of requests) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') {
      out.set(k, q);
      out.set(`requests.${k}`, q);
    } else if (k.startsWith('hugepages-') || (k.includes('/') && !k.startsWith('kubernetes.io/'))) {
      out.set(`requests.${k}`, q);
    }
  }
  for (const [k, q] of limits) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') out.set(`limits.${k}`, q);
  }
  return out;
}

/** The names a quota on cpu or memory requires every container to state (validationSet). */
const validationSet: ReadonlySet<string> = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

const podEvaluator: QuotaEvaluator = {
  handles: (op, features) =>
    op === 'CREATE' || (op === 'UPDATE' && features.enabled('InPlacePodVerticalScaling')),
  matchingResources: (names) => names.filter(podMatchesName),
  matchesScope: podMatchesScope,
  usage: (pod, nowMs) => {
    const result: ResourceList = new Map([['count/pods', count(1)]]);
    if (!podCountsForQuota(pod, nowMs)) return result;
    return add(result, computeUsage(podResources(pod, 'requests'), podResources(pod, 'limits')));
  },
  constraints: (required, pod) => {
    const requiredSet = required.filter((n) => validationSet.has(n));
    if (requiredSet.length === 0) return undefined;
    const missing = new Map<string, Set<string>>();
    const spec = objOf(pod['spec']);
    for (const field of ['containers', 'initContainers']) {
      for (const c of arr(spec[field])) {
        const container = objOf(c);
        const res = objOf(container['resources']);
        const usage = computeUsage(resourceListOf(res['requests']), resourceListOf(res['limits']));
        for (const n of requiredSet) {
          if (usage.has(n)) continue;
          const names = missing.get(n) ?? new Set<string>();
          names.add(str(container['name']));
          missing.set(n, names);
        }
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((n) => `${n} for: ${[...missing.get(n)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
};

// ---- services ----

const serviceNames: ReadonlySet<string> = new Set([
  'services',
  'count/services',
  'services.loadbalancers',
  'services.nodeports',
]);

const serviceEvaluator: QuotaEvaluator = {
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  matchingResources: (names) => names.filter((n) => serviceNames.has(n)),
  matchesScope: () => false,
  usage: (svc) => {
    const spec = objOf(svc['spec']);
    const ports = arr(spec['ports']);
    const out: ResourceList = new Map([
      ['services', count(1)],
      ['count/services', count(1)],
    ]);
    const type = spec['type'];
    if (type === 'NodePort') out.set('services.nodeports', count(ports.length));
    if (type === 'LoadBalancer') {
      const withNodePorts =
        spec['allocateLoadBalancerNodePorts'] === false
          ? ports.filter((p) => typeof objOf(p)['nodePort'] === 'number' && objOf(p)['nodePort'] !== 0).length
          : ports.length;
      out.set('services.nodeports', count(withNodePorts));
      out.set('services.loadbalancers', count(1));
    }
    return out;
  },
  constraints: () => undefined,
};

// ---- persistent volume claims ----

const storageClassSuffix = '.storageclass.storage.k8s.io/';

function pvcMatchesName(name: string): boolean {
  if (
    name === 'persistentvolumeclaims' ||
    name === 'count/persistentvolumeclaims' ||
    name === 'requests.storage'
  )
    return true;
  const i = name.indexOf(storageClassSuffix);
  if (i < 0) return false;
  const rest = name.slice(i + storageClassSuffix.length);
  return rest === 'requests.storage' || rest === 'persistentvolumeclaims';
}

/** The claim's class: spec.storageClassName, else the beta annotation. */
export function claimStorageClass(pvc: JsonObject): string {
  const cls = objOf(pvc['spec'])['storageClassName'];
  if (typeof cls === 'string') return cls;
  const annotation = objOf(objOf(pvc['metadata'])['annotations'])['volume.beta.kubernetes.io/storage-class'];
  return typeof annotation === 'string' ? annotation : '';
}

const pvcEvaluator: QuotaEvaluator = {
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  matchingResources: (names) => names.filter(pvcMatchesName),
  matchesScope: () => false,
  usage: (pvc) => {
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', count(1)],
      ['count/persistentvolumeclaims', count(1)],
    ]);
    const cls = claimStorageClass(pvc);
    if (cls !== '') out.set(`${cls}${storageClassSuffix}persistentvolumeclaims`, count(1));
    const storage = quantityOf(objOf(objOf(objOf(pvc['spec'])['resources'])['requests'])['storage']);
    if (storage !== undefined) {
      out.set('requests.storage', storage);
      if (cls !== '') out.set(`${cls}${storageClassSuffix}requests.storage`, storage);
    }
    return out;
  },
  constraints: () => undefined,
};

/** The evaluator of one group/resource: pods, services and claims have their own; others count objects. */
export function quotaEvaluatorFor(group: string, resource: string): QuotaEvaluator {
  if (group === '') {
    if (resource === 'pods') return podEvaluator;
    if (resource === 'services') return serviceEvaluator;
    if (resource === 'persistentvolumeclaims') return pvcEvaluator;
  }
  return objectCountEvaluator(group, resource);
}
