/**
 * Several authenticators in order (upstream union + AuthenticatedGroupAdder + anonymous): the first
 * that names a user wins; any failure fails the request; a request no authenticator recognises is
 * `system:anonymous` when anonymous requests are allowed, and fails otherwise. Authenticated users
 * are members of `system:authenticated`.
 */
import { anonymousUser, wellKnownGroups } from '../machinery/user.js';
import type { UserInfo } from '../machinery/user.js';
import type { Authenticator, AuthenticationResult, Credentials } from './authenticator.js';

export interface UnionAuthenticatorOptions {
  readonly authenticators: readonly Authenticator[];
  /** `--anonymous-auth` (upstream default true; nanokube's false). */
  readonly anonymous: boolean;
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(wellKnownGroups.authenticated) || user.name === anonymousUser.name) return user;
  return { ...user, groups: [...user.groups, wellKnownGroups.authenticated] };
}

export function unionAuthenticator(o: UnionAuthenticatorOptions): Authenticator {
  return {
    async authenticate(c: Credentials): Promise<AuthenticationResult> {
      const failures: string[] = [];
      for (const a of o.authenticators) {
        const r = await a.authenticate(c);
        if (r.kind === 'authenticated') return { ...r, user: withAuthenticatedGroup(r.user) };
        if (r.kind === 'failed') failures.push(r.reason);
      }
      if (failures.length > 0) return { kind: 'failed', reason: failures.join('; ') };
      if (o.anonymous) return { kind: 'authenticated', user: anonymousUser };
      return { kind: 'failed', reason: 'no credentials' };
    },
  };
}
