/**
 * Credentials nanokube cannot verify yet (bearer tokens, basic auth): the request fails with 401
 * instead of falling through to anonymous. Token authenticators replace this when they exist.
 */
import type { Authenticator, AuthenticationResult, Credentials } from './authenticator.js';

export function refuseUnverifiableCredentials(): Authenticator {
  return {
    authenticate(c: Credentials): AuthenticationResult {
      if (c.authorization === undefined || c.authorization === '') return { kind: 'none' };
      const scheme = c.authorization.split(' ', 1)[0] ?? '';
      return { kind: 'failed', reason: `no authenticator accepts ${scheme} credentials` };
    },
  };
}
