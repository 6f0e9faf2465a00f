/**
 * The built-in authorizers beside RBAC (upstream authorizerfactory):
 * - `system:masters` may do anything, always asked first (upstream's privileged-group authorizer;
 *   it lists no rules: a SelfSubjectRulesReview shows what RBAC grants the group);
 * - AlwaysAllow: everything, for tests and experiments (`--authorization-mode=AlwaysAllow`);
 * - AlwaysDeny: nothing, with upstream's reason "Everything is forbidden.".
 */
import { isPrivileged } from '../machinery/user.js';
import type { AuthorizationResult, Authorizer } from './authorizer.js';
import { allRules, noOpinion, noRules } from './authorizer.js';

const allow: AuthorizationResult = { decision: 'allow', reason: '' };

export function privilegedGroupAuthorizer(): Authorizer {
  return { authorize: (a) => (isPrivileged(a.user) ? allow : noOpinion) };
}

export function alwaysAllowAuthorizer(): Authorizer {
  return { authorize: () => allow, rulesFor: () => allRules };
}

export function alwaysDenyAuthorizer(): Authorizer {
  return {
    authorize: () => ({ decision: 'noOpinion', reason: 'Everything is forbidden.' }),
    rulesFor: () => noRules,
  };
}
