/**
 * Whether one set of rules covers another (upstream pkg/registry/rbac/validation
 * policy_comparator.go and policy_compact.go): the servant's rules are broken down to one group,
 * resource, verb and name each, and every piece must be covered by a single owner rule; the
 * uncovered pieces come back, and `compactRules` merges those differing only in verb.
 */
import type { PolicyRule } from '../../../apis/rbac/v1/evaluation.js';

const rule = (p: Partial<PolicyRule>): PolicyRule => ({
  verbs: p.verbs ?? [],
  apiGroups: p.apiGroups ?? [],
  resources: p.resources ?? [],
  resourceNames: p.resourceNames ?? [],
  nonResourceURLs: p.nonResourceURLs ?? [],
});

/** Upstream BreakdownRule. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups) {
    for (const resource of r.resources) {
      for (const verb of r.verbs) {
        if (r.resourceNames.length > 0) {
          for (const name of r.resourceNames) {
            out.push(
              rule({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }),
            );
          }
        } else out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb] }));
      }
    }
  }
  for (const url of r.nonResourceURLs) {
    for (const verb of r.verbs) out.push(rule({ nonResourceURLs: [url], verbs: [verb] }));
  }
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean => {
  const owned = new Set(set);
  return wanted.every((w) => owned.has(w));
};

function resourceCoversAll(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes('*') || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, ''));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups.includes('*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = sub.nonResourceURLs.every((u) =>
    owner.nonResourceURLs.some((o) => nonResourceURLCovers(o, u)),
  );
  const names =
    sub.resourceNames.length === 0
      ? owner.resourceNames.length === 0
      : owner.resourceNames.length === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** Upstream Covers: whether `owner` covers `servant`, and the pieces it does not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  const uncovered: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule)) {
    if (!owner.some((o) => ruleCovers(o, sub))) uncovered.push(sub);
  }
  return uncovered;
}

/** Upstream CompactRules: rules of one group and resource (and at most one name) merge their verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, { verbs: string[]; rule: PolicyRule }>();
  for (const r of rules) {
    const isSimple =
      r.resourceNames.length <= 1 &&
      r.nonResourceURLs.length === 0 &&
      r.apiGroups.length === 1 &&
      r.resources.length === 1;
    if (!isSimple) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames[0] ?? null]);
    const existing = simple.get(key);
    if (existing !== undefined) existing.verbs.push(...r.verbs);
    else simple.set(key, { verbs: [...r.verbs], rule: r });
  }
  for (const { verbs, rule: r } of simple.values()) compacted.push({ ...r, verbs });
  return compacted;
}
