/**
 * RBAC's escalation prevention (upstream pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased and rbac/escalation_check.go), as write hooks of the four RBAC
 * stores: nobody grants what they do not hold. A Role or ClusterRole may be written by
 * `system:masters`, by whoever may `escalate` it, or by whoever holds every rule it carries (an
 * aggregation rule needs everything); a binding by `system:masters`, whoever may `bind` the role it
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
import { isJsonObject } from '../../../util/json.js';
import type { HookContext, WriteHooks } from '../../generic/hooks.js';
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

/** Only the fields the garbage collector changes differ (upstream IsOnlyMutatingGCFields). */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const meta: Record<string, unknown> = { ...o.metadata };
    for (const k of ['ownerReferences', 'finalizers', 'resourceVersion', 'managedFields']) delete meta[k];
    return JSON.stringify({ ...o, metadata: meta });
  };
  return strip(obj) === strip(old);
}

type Kind = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

export function escalationHooks(resource: Kind, checks: EscalationChecks): WriteHooks {
  const gr = { group: rbacGroup, resource };
  const check = async (ctx: HookContext, obj: KubeObject): Promise<void> => {
    if (isPrivileged(ctx.user)) return;
    const name = obj.metadata.name ?? '';
    if (resource === 'roles' || resource === 'clusterroles') {
      const escalate = await checks.allowed({
        user: ctx.user,
        verb: 'escalate',
        apiGroup: rbacGroup,
        resource,
        name,
        namespace: ctx.namespace,
      });
      if (escalate) return;
      const text = escalationText(checks, ctx.user, ctx.namespace, policyRulesOf(obj['rules']));
      if (text !== undefined) throw apiErrors.forbidden(gr, name, text);
      const aggregation = obj['aggregationRule'];
      if (resource === 'clusterroles' && isJsonObject(aggregation)) {
        if (escalationText(checks, ctx.user, ctx.namespace, fullAuthority) !== undefined) {
          throw apiErrors.forbidden(
            gr,
            name,
            'must have cluster-admin privileges to use the aggregationRule',
          );
        }
      }
      return;
    }
    const ref = bindingViewOf(obj).roleRef;
    const bind = await checks.allowed({
      user: ctx.user,
      verb: 'bind',
      apiGroup: ref.apiGroup,
      resource: ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : '',
      name: ref.name,
      namespace: ctx.namespace,
    });
    if (bind && (ref.kind === 'ClusterRole' || ref.kind === 'Role')) return;
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
    beforeCreate: async (ctx, obj) => {
      await check(ctx, obj);
      return undefined;
    },
    beforeUpdate: async (ctx, obj, old) => {
      if (!onlyGCFields(obj, old)) await check(ctx, obj);
      return undefined;
    },
  };
}
