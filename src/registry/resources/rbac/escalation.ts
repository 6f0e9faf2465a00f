/**
 * RBAC's escalation prevention (upstream pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased and rbac/escalation_check.go), as write hooks of the four RBAC
 * stores: nobody grants what they do not hold. A Role or ClusterRole may be written by
 * `system:masters`, by whoever may `escalate` it (asked for the request's name, so none for a
 * POST), or by whoever holds every rule it carries (an aggregation rule, set or removed, needs
 * everything); a binding by `system:masters`, whoever may `bind` the role it
 * refers to, or whoever holds every rule of that role. Refusals are upstream's 403 texts. Writes
 * that only touch ownerReferences or finalizers (the garbage collector's) are not checked.
 * The authorizer and rule resolver arrive as callbacks (registry/ does not import auth/).
 */
import type { PolicyRule, RoleRef } from '../../../apis/rbac/v1/evaluation.js';
import {
  bindingViewOf,
  compactString,
  goQuotedList,
  policyRulesOf,
} from '../../../apis/rbac/v1/evaluation.js';
import { goQuote } from '../../../machinery/field/errors.js';
import { apiErrors } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { UserInfo } from '../../../machinery/user.js';
import { isPrivileged } from '../../../machinery/user.js';
import { isJsonObject, jsonEqual } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import type { HookContext, WriteCheck, WriteHooks } from '../../generic/hooks.js';
import { compactRules, covers } from './policy-compare.js';

const rbacGroup = 'rbac.authorization.k8s.io';

export interface EscalationChecks {
  /** Whether the server's authorizer allows `verb` on the RBAC resource (`escalate`, `bind`). */
  allowed(q: {
    readonly user: UserInfo;
    readonly verb: string;
    readonly apiGroup: string;
    readonly resource: string;
    readonly name: string;
    readonly namespace: string;
  }): Promise<boolean>;
  /** RBAC's rules for the user in a namespace, with the resolver's error text ('' when none). */
  rulesFor(
    user: UserInfo,
    namespace: string,
  ): { readonly rules: readonly PolicyRule[]; readonly error: string };
  /** The rules a role reference grants in a namespace; throws an Error with upstream's text. */
  roleRefRules(ref: RoleRef, namespace: string): readonly PolicyRule[];
}

const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [], nonResourceURLs: [] },
  { verbs: ['*'], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ['*'] },
];

/** Upstream ConfirmNoEscalation's refusal text, or undefined when `user` holds every rule. */
function escalationText(
  checks: EscalationChecks,
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
): string | undefined {
  const owner = checks.rulesFor(user, namespace);
  const missing = covers(owner.rules, rules);
  if (missing.length === 0) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (owner.error !== '') msg += `; resolution errors: [${owner.error}]`;
  return msg;
}

/**
 * Only the fields the garbage collector changes differ (upstream IsOnlyMutatingGCFields: the new
 * object with the old one's ownerReferences, finalizers, selfLink and managedFields is the old).
 */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): JsonObject => {
    const meta: Record<string, unknown> = { ...o.metadata };
    for (const k of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) delete meta[k];
    return { ...o, metadata: meta } as JsonObject;
  };
  return jsonEqual(strip(obj), strip(old));
}

/** upstream hasAggregationRule: an aggregationRule with at least one selector. */
function hasAggregationRule(o: KubeObject | undefined): boolean {
  const rule = o?.['aggregationRule'];
  if (!isJsonObject(rule)) return false;
  const selectors = rule['clusterRoleSelectors'];
  return Array.isArray(selectors) && selectors.length > 0;
}

type Kind = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

/**
 * The escalation checks of one RBAC store, as its `checkWrite` hook: before validation (an
 * invalid role that also escalates is refused as an escalation, as upstream), dry runs included.
 */
export function escalationHooks(resource: Kind, checks: EscalationChecks): WriteHooks {
  const gr = { group: rbacGroup, resource };

  /** upstream RoleEscalationAuthorized: `escalate` on the request's name (none for a POST). */
  const mayEscalate = (ctx: HookContext, w: WriteCheck): Promise<boolean> =>
    checks.allowed({
      user: ctx.user,
      verb: 'escalate',
      apiGroup: rbacGroup,
      resource,
      name: w.requestName,
      namespace: ctx.namespace,
    });

  /** upstream BindingAuthorized: `bind` on the referenced role, in the binding's namespace. */
  const mayBind = (ctx: HookContext, ref: RoleRef): Promise<boolean> => {
    if (ref.kind !== 'ClusterRole' && ref.kind !== 'Role') return Promise.resolve(false);
    return checks.allowed({
      user: ctx.user,
      verb: 'bind',
      apiGroup: ref.apiGroup,
      resource: ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles',
      name: ref.name,
      namespace: ctx.namespace,
    });
  };

  const checkRole = (ctx: HookContext, w: WriteCheck): void => {
    const name = w.obj.metadata.name ?? '';
    const text = escalationText(checks, ctx.user, ctx.namespace, policyRulesOf(w.obj['rules']));
    if (text !== undefined) throw apiErrors.forbidden(gr, name, text);
    // An aggregation rule can gather anything (and removing one can keep rules from tightening).
    if (resource === 'clusterroles' && (hasAggregationRule(w.obj) || hasAggregationRule(w.old))) {
      if (escalationText(checks, ctx.user, ctx.namespace, fullAuthority) !== undefined) {
        throw apiErrors.forbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  };

  const checkBinding = async (ctx: HookContext, w: WriteCheck): Promise<void> => {
    const name = w.obj.metadata.name ?? '';
    const ref = bindingViewOf(w.obj).roleRef;
    if (await mayBind(ctx, ref)) return;
    let rules: readonly PolicyRule[];
    try {
      rules = checks.roleRefRules(ref, ctx.namespace);
    } catch (err) {
      throw apiErrors.forbidden(gr, name, err instanceof Error ? err.message : String(err));
    }
    const text = escalationText(checks, ctx.user, ctx.namespace, rules);
    if (text !== undefined) throw apiErrors.forbidden(gr, name, text);
  };

  return {
    checkWrite: async (ctx, w) => {
      if (isPrivileged(ctx.user)) return;
      const isRole = resource === 'roles' || resource === 'clusterroles';
      // Upstream asks `escalate` before looking at the object, for creates and updates alike.
      if (isRole && (await mayEscalate(ctx, w))) return;
      if (w.old !== undefined && onlyGCFields(w.obj, w.old)) return;
      if (isRole) checkRole(ctx, w);
      else await checkBinding(ctx, w);
    },
  };
}
