/**
 * The RBAC authorizer (upstream plugin/pkg/auth/authorizer/rbac): a request is allowed by the
 * first rule, among those the user's bindings grant, that allows it, with the reason
 * `RBAC: allowed by <binding> of <role> to <subject>`. Otherwise it has no opinion: its reason is
 * empty, or the bindings whose roles could not be read (`RBAC: clusterrole... "x" not found`).
 */
import type { PolicyRule } from '../../apis/rbac/v1/evaluation.js';
import { ruleAllows } from '../../apis/rbac/v1/evaluation.js';
import type { UserInfo } from '../../machinery/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from '../authorizer.js';
import { noOpinion } from '../authorizer.js';
import type { RbacPolicyIndex } from './policy-index.js';
import { RuleResolver, aggregateMessage } from './rule-resolver.js';

/** RBAC answers synchronously from memory. */
export interface RbacAuthorizer extends Authorizer {
  readonly resolver: RuleResolver;
  authorize(attributes: AuthorizationAttributes): AuthorizationResult;
  rulesFor(user: UserInfo, namespace: string): UserRules;
}

export function rbacAuthorizer(index: RbacPolicyIndex): RbacAuthorizer {
  const resolver = new RuleResolver(index);
  return {
    resolver,
    authorize(a: AuthorizationAttributes): AuthorizationResult {
      let reason = '';
      const errors: Error[] = [];
      resolver.visitRulesFor(a.user, a.namespace, (source, rule, err) => {
        if (rule !== undefined && source !== undefined && ruleAllows(a, rule)) {
          reason = `RBAC: allowed by ${source}`;
          return false;
        }
        if (err !== undefined) errors.push(err);
        return true;
      });
      if (reason !== '') return { decision: 'allow', reason };
      if (errors.length > 0) return { decision: 'noOpinion', reason: `RBAC: ${aggregateMessage(errors)}` };
      return noOpinion;
    },
    rulesFor(user: UserInfo, namespace: string): UserRules {
      const { rules, errors } = resolver.rulesFor(user, namespace);
      const resourceRules: UserRules['resourceRules'][number][] = [];
      const nonResourceRules: UserRules['nonResourceRules'][number][] = [];
      for (const r of rules) {
        if (r.resources.length > 0) resourceRules.push(resourceRule(r));
        if (r.nonResourceURLs.length > 0) {
          nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
        }
      }
      return {
        resourceRules,
        nonResourceRules,
        incomplete: false,
        ...(errors.length > 0 ? { evaluationError: aggregateMessage(errors) } : {}),
      };
    },
  };
}

function resourceRule(r: PolicyRule): UserRules['resourceRules'][number] {
  return {
    verbs: [...r.verbs],
    apiGroups: [...r.apiGroups],
    resources: [...r.resources],
    ...(r.resourceNames.length > 0 ? { resourceNames: [...r.resourceNames] } : {}),
  };
}
