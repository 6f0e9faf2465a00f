/**
 * Creates and reconciles the RBAC bootstrap policy at start, as kube-apiserver's
 * `rbac/bootstrap-roles` post-start hook (pkg/registry/rbac/rest + reconciliation): a missing
 * object is created; an existing one annotated `rbac.authorization.kubernetes.io/autoupdate:
 * "false"` is left alone; otherwise what is missing is added and nothing removed: labels and
 * annotations, rules (the uncovered pieces), aggregation selectors, binding subjects. A binding
 * whose roleRef differs is deleted and created again (roleRef is immutable).
 */
import type { BootstrapPolicy } from '../../apis/rbac/v1/bootstrap-policy.js';
import { autoUpdateAnnotation } from '../../apis/rbac/v1/bootstrap-policy.js';
import { policyRuleJson, policyRulesOf } from '../../apis/rbac/v1/evaluation.js';
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { serverUser } from '../../machinery/user.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { covers } from '../../registry/resources/rbac/policy-compare.js';
import type { JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject } from '../../util/json.js';

export interface RbacStores {
  readonly clusterRoles: GenericStore;
  readonly clusterRoleBindings: GenericStore;
  readonly roles: GenericStore;
  readonly roleBindings: GenericStore;
}

const req = { dryRun: false, user: serverUser } as const;

function mergeMissing(
  into: Record<string, string> | undefined,
  from: Readonly<Record<string, string>> | undefined,
): { merged: Record<string, string>; changed: boolean } {
  const merged = { ...(into ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(from ?? {})) {
    if (!(k in merged)) {
      merged[k] = v;
      changed = true;
    }
  }
  return { merged, changed };
}

/** The existing object with what `expected` has and it lacks, or undefined when nothing is. */
function reconciled(existing: KubeObject, expected: KubeObject, binding: boolean): KubeObject | undefined {
  if (existing.metadata.annotations?.[autoUpdateAnnotation] === 'false') return undefined;
  const out = cloneJson(existing);
  const labels = mergeMissing(out.metadata.labels, expected.metadata.labels);
  const annotations = mergeMissing(out.metadata.annotations, expected.metadata.annotations);
  out.metadata.labels = labels.merged;
  out.metadata.annotations = annotations.merged;
  let changed = labels.changed || annotations.changed;
  if (binding) {
    const have = Array.isArray(out['subjects']) ? [...out['subjects']] : [];
    const key = (s: JsonValue): string =>
      JSON.stringify(isJsonObject(s) ? [s['kind'], s['name'], s['namespace'] ?? ''] : s);
    const seen = new Set(have.map(key));
    for (const s of Array.isArray(expected['subjects']) ? expected['subjects'] : []) {
      if (!seen.has(key(s))) {
        have.push(s);
        changed = true;
      }
    }
    if (have.length > 0) out['subjects'] = have;
  } else {
    const missing = covers(policyRulesOf(out['rules']), policyRulesOf(expected['rules']));
    if (missing.length > 0) {
      out['rules'] = [...(Array.isArray(out['rules']) ? out['rules'] : []), ...missing.map(policyRuleJson)];
      changed = true;
    }
    const want = isJsonObject(expected['aggregationRule']) ? expected['aggregationRule'] : undefined;
    if (want !== undefined) {
      const rule = isJsonObject(out['aggregationRule']) ? out['aggregationRule'] : {};
      const selectors = Array.isArray(rule['clusterRoleSelectors']) ? [...rule['clusterRoleSelectors']] : [];
      const seen = new Set(selectors.map((s) => JSON.stringify(s)));
      for (const s of Array.isArray(want['clusterRoleSelectors']) ? want['clusterRoleSelectors'] : []) {
        if (!seen.has(JSON.stringify(s))) {
          selectors.push(s);
          changed = true;
        }
      }
      out['aggregationRule'] = { ...rule, clusterRoleSelectors: selectors };
    }
  }
  return changed ? out : undefined;
}

const sameRoleRef = (a: KubeObject, b: KubeObject): boolean =>
  JSON.stringify(a['roleRef']) === JSON.stringify(b['roleRef']);

async function ensure(store: GenericStore, objects: readonly KubeObject[], binding: boolean): Promise<void> {
  const existing = new Map(
    (await store.list('', {})).items.map((o) => [
      `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`,
      o,
    ]),
  );
  await Promise.all(
    objects.map(async (expected) => {
      const ns = expected.metadata.namespace ?? '';
      const name = expected.metadata.name ?? '';
      const current = existing.get(`${ns}/${name}`);
      try {
        if (current === undefined) {
          await store.create(ns, cloneJson(expected), req);
          return;
        }
        if (binding && !sameRoleRef(current, expected)) {
          if (current.metadata.annotations?.[autoUpdateAnnotation] === 'false') return;
          await store.delete(ns, name, req);
          await store.create(ns, cloneJson(expected), req);
          return;
        }
        const next = reconciled(current, expected, binding);
        if (next !== undefined) await store.update(ns, name, () => next, req);
      } catch (err) {
        // Another writer (a second start, a user) got there first: the next start reconciles again.
        if (!(err instanceof StatusError && err.code === 409)) throw err;
      }
    }),
  );
}

export async function ensureRbacBootstrapPolicy(stores: RbacStores, policy: BootstrapPolicy): Promise<void> {
  await Promise.all([
    ensure(stores.clusterRoles, policy.clusterRoles, false),
    ensure(stores.clusterRoleBindings, policy.clusterRoleBindings, true),
    ensure(stores.roles, policy.roles, false),
    ensure(stores.roleBindings, policy.roleBindings, true),
  ]);
}
