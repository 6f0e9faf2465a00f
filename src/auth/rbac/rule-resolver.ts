/**
 * Upstream's DefaultRuleResolver (pkg/registry/rbac/validation/rule.go): the rules a user holds
 * in a namespace, from the cluster role bindings and then that namespace's role bindings whose
 * subjects name the user, each rule with the binding that grants it. A binding whose role is
 * missing contributes an error instead of rules.
 */
import type { BindingView, PolicyRule, RoleRef, Subject } from '../../apis/rbac/v1/evaluation.js';
import { matchesServiceAccount } from '../../apis/rbac/v1/evaluation.js';
import { goQuote } from '../../machinery/field/errors.js';
import type { UserInfo } from '../../machinery/user.js';
import { RbacPolicyIndex } from './policy-index.js';

/**
 * A reference to a role that cannot be read: its message is the authorizer's (upstream's listers
 * say `clusterrole.rbac.authorization.k8s.io "x" not found`); `missing` names the role that does
 * not exist, for callers that word it as storage does (escalation checks read the registry).
 */
export class RoleRefError extends Error {
  override readonly name = 'RoleRefError';
  readonly missing: { readonly resource: 'roles' | 'clusterroles'; readonly name: string } | undefined;

  constructor(
    message: string,
    missing?: { readonly resource: 'roles' | 'clusterroles'; readonly name: string },
  ) {
    super(message);
    this.missing = missing;
  }
}

/** Go's %q of a string (what upstream's describers use). */
const q = goQuote;

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    return `${s.kind} ${q(`${s.name}/${s.namespace !== '' ? s.namespace : bindingNamespace}`)}`;
  }
  return `${s.kind} ${q(s.name)}`;
}

/** Upstream's clusterRoleBindingDescriber / roleBindingDescriber texts. */
export function describeSource(b: BindingView, subject: Subject): string {
  if (b.namespace === '') {
    return `ClusterRoleBinding ${q(b.name)} of ${b.roleRef.kind} ${q(b.roleRef.name)} to ${describeSubject(subject, '')}`;
  }
  return `RoleBinding ${q(`${b.name}/${b.namespace}`)} of ${b.roleRef.kind} ${q(b.roleRef.name)} to ${describeSubject(subject, b.namespace)}`;
}

function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.name === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace !== '' ? s.namespace : namespace;
      return ns !== '' && matchesServiceAccount(ns, s.name, user.name);
    }
    default:
      return false;
  }
}

/** The first subject of `b` that names `user`. */
function subjectFor(user: UserInfo, b: BindingView, namespace: string): Subject | undefined {
  return b.subjects.find((s) => appliesToUser(user, s, namespace));
}

/** Returns false to stop. `source` is absent with an error. */
export type RuleVisitor = (
  source: string | undefined,
  rule: PolicyRule | undefined,
  err: Error | undefined,
) => boolean;

export class RuleResolver {
  readonly #index: RbacPolicyIndex;

  constructor(index: RbacPolicyIndex) {
    this.#index = index;
  }

  /** Upstream GetRoleReferenceRules. */
  roleRefRules(ref: RoleRef, bindingNamespace: string): readonly PolicyRule[] {
    if (ref.kind === 'Role') {
      const role = this.#index.getRole(bindingNamespace, ref.name);
      if (role === undefined)
        throw new RoleRefError(`role.rbac.authorization.k8s.io ${q(ref.name)} not found`, {
          resource: 'roles',
          name: ref.name,
        });
      return role.rules;
    }
    if (ref.kind === 'ClusterRole') {
      const role = this.#index.getClusterRole(ref.name);
      if (role === undefined) {
        throw new RoleRefError(`clusterrole.rbac.authorization.k8s.io ${q(ref.name)} not found`, {
          resource: 'clusterroles',
          name: ref.name,
        });
      }
      return role.rules;
    }
    throw new RoleRefError(`unsupported role reference kind: ${q(ref.kind)}`);
  }

  /** Upstream VisitRulesFor. */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    const keys = RbacPolicyIndex.keysOf(user);
    const scopes: [BindingView[], string][] = [[this.#index.clusterRoleBindingsFor(keys), '']];
    if (namespace !== '') scopes.push([this.#index.roleBindingsFor(namespace, keys), namespace]);
    for (const [bindings, ns] of scopes) {
      for (const b of bindings) {
        const subject = subjectFor(user, b, ns);
        if (subject === undefined) continue;
        let rules: readonly PolicyRule[];
        try {
          rules = this.roleRefRules(b.roleRef, ns);
        } catch (err) {
          if (!visit(undefined, undefined, err as Error)) return;
          continue;
        }
        const source = describeSource(b, subject);
        for (const rule of rules) if (!visit(source, rule, undefined)) return;
      }
    }
  }

  /** Upstream RulesFor: every rule, and the errors met on the way. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule !== undefined) rules.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    });
    return { rules, errors };
  }
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several (without repeats) as `[a, b]`. */
export function aggregateMessage(errors: readonly Error[]): string {
  if (errors.length === 1) return errors[0]!.message;
  const unique = [...new Set(errors.map((e) => e.message))];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
