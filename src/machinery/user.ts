/**
 * Who made a request (upstream k8s.io/apiserver/pkg/authentication/user): a name, an optional uid,
 * groups and extra attributes, plus the well-known names the server itself gives meaning to.
 */

export interface UserInfo {
  readonly name: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export const wellKnownUsers = {
  anonymous: 'system:anonymous',
} as const;

export const wellKnownGroups = {
  /** Members may do anything; no authorizer is asked (upstream's privileged group). */
  masters: 'system:masters',
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  serviceAccounts: 'system:serviceaccounts',
} as const;

/** The user of a request that presented no credentials. */
export const anonymousUser: UserInfo = Object.freeze({
  name: wellKnownUsers.anonymous,
  uid: '',
  groups: Object.freeze([wellKnownGroups.unauthenticated]),
  extra: Object.freeze({}),
});

/** The user of the server's own work (bootstrap objects, internal writes). */
export const serverUser: UserInfo = Object.freeze({
  name: 'system:apiserver',
  uid: '',
  groups: Object.freeze([wellKnownGroups.masters]),
  extra: Object.freeze({}),
});

export function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(wellKnownGroups.masters);
}
