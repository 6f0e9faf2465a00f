/**
 * The authorizers that stand before RBAC exists:
 * - `system:masters` may do anything (upstream's privileged-group authorizer, always first);
 * - anyone, anonymous included, may GET the public information paths that upstream's
 *   `system:public-info-viewer` ClusterRole grants to `system:unauthenticated`;
 * - until the RBAC authorizer lands, every authenticated (non-anonymous) user is allowed.
 */
import { isPrivileged, wellKnownGroups } from '../machinery/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from './authorizer.js';
import { allRules, noOpinion, noRules } from './authorizer.js';

const allow: AuthorizationResult = { decision: 'allow', reason: '' };

export function privilegedGroupAuthorizer(): Authorizer {
  return {
    authorize: (a) => (isPrivileged(a.user) ? allow : noOpinion),
    rulesFor: (user) => (isPrivileged(user) ? allRules : noRules),
  };
}

/** system:public-info-viewer's nonResourceURLs (matched exactly, verb get). */
const publicInfoPaths = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

export function publicInfoAuthorizer(): Authorizer {
  return {
    authorize: (a: AuthorizationAttributes) =>
      !a.isResourceRequest && a.verb === 'get' && publicInfoPaths.has(a.path) ? allow : noOpinion,
    rulesFor: () => ({
      resourceRules: [],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [...publicInfoPaths] }],
      incomplete: false,
    }),
  };
}

/** Allows every authenticated user: the stand-in until RBAC (issue #12). */
export function authenticatedUsersAuthorizer(): Authorizer {
  return {
    authorize: (a) => (a.user.groups.includes(wellKnownGroups.authenticated) ? allow : noOpinion),
    rulesFor: (user) => (user.groups.includes(wellKnownGroups.authenticated) ? allRules : noRules),
  };
}
