/**
 * ResourceQuota scopes (upstream pkg/quota/v1/evaluator/core/pods.go podMatchesScopeFunc): which
 * pods a scoped quota counts. Only pods have scopes; every other kind matches no scope.
 */
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';

export interface ScopeRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values: readonly string[];
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

/** spec.scopes as Exists requirements, then spec.scopeSelector's (upstream getScopeSelectorsFromQuota). */
export function quotaScopes(quota: JsonObject): ScopeRequirement[] {
  const spec = objOf(quota['spec']);
  const out: ScopeRequirement[] = arr(spec['scopes'])
    .filter((s): s is string => typeof s === 'string')
    .map((scopeName) => ({ scopeName, operator: 'Exists', values: [] }));
  for (const e of arr(objOf(spec['scopeSelector'])['matchExpressions'])) {
    if (!isJsonObject(e)) continue;
    out.push({
      scopeName: str(e['scopeName']),
      operator: str(e['operator']),
      values: arr(e['values']).filter((v): v is string => typeof v === 'string'),
    });
  }
  return out;
}

/** upstream qos.GetPodQOS's BestEffort: no container asks for or limits cpu or memory. */
export function isBestEffort(pod: JsonObject): boolean {
  const spec = objOf(pod['spec']);
  for (const field of ['initContainers', 'containers']) {
    for (const c of arr(spec[field])) {
      const res = objOf(objOf(c)['resources']);
      for (const which of ['requests', 'limits']) {
        const list = objOf(res[which]);
        if (list['cpu'] !== undefined || list['memory'] !== undefined) return false;
      }
    }
  }
  return true;
}

function isTerminating(pod: JsonObject): boolean {
  const v = objOf(pod['spec'])['activeDeadlineSeconds'];
  return typeof v === 'number' && v >= 0;
}

function usesCrossNamespaceAffinity(pod: JsonObject): boolean {
  const affinity = objOf(objOf(pod['spec'])['affinity']);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = objOf(affinity[kind]);
    const terms = [
      ...arr(a['requiredDuringSchedulingIgnoredDuringExecution']),
      ...arr(a['preferredDuringSchedulingIgnoredDuringExecution']).map((w) => objOf(w)['podAffinityTerm']),
    ];
    for (const t of terms) {
      const term = objOf(t);
      if (arr(term['namespaces']).length > 0 || isJsonObject(term['namespaceSelector'])) return true;
    }
  }
  return false;
}

/** Whether a pod matches one scope requirement (errors for unknown operators are upstream's). */
export function podMatchesScope(req: ScopeRequirement, pod: JsonObject): boolean {
  switch (req.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const pc = objOf(pod['spec'])['priorityClassName'];
      const name = typeof pc === 'string' ? pc : '';
      // A pod without a class matches only Exists-less selectors (upstream podMatchesSelector on a label set).
      switch (req.operator) {
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        case 'In':
          return name !== '' && req.values.includes(name);
        case 'NotIn':
          return name === '' || !req.values.includes(name);
        default:
          return false;
      }
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod);
    default:
      return false;
  }
}

/** upstream's %v of a []ScopedResourceSelectorRequirement: `[{PriorityClass In [a b]}]`. */
export function formatScopes(scopes: readonly ScopeRequirement[]): string {
  return `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${s.values.join(' ')}]}`).join(' ')}]`;
}
