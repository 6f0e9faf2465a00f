/**
 * Client certificates (upstream x509 authenticator with CommonNameUserConversion): a certificate
 * the TLS layer verified against the client CA names the user by its CN and the groups by its O
 * values. A certificate that did not verify (another CA, expired, wrong usage) fails the request.
 */
import type { Authenticator, AuthenticationResult, Credentials } from './authenticator.js';

export function x509Authenticator(): Authenticator {
  return {
    authenticate(c: Credentials): AuthenticationResult {
      const cert = c.certificate;
      if (cert === undefined) return { kind: 'none' };
      if (!cert.verified) {
        return {
          kind: 'failed',
          reason: `x509: certificate not accepted: ${cert.error ?? 'unknown authority'}`,
        };
      }
      // Upstream: a certificate without a CN authenticates nobody (other authenticators may).
      if (cert.commonName === '') return { kind: 'none' };
      return {
        kind: 'authenticated',
        user: { name: cert.commonName, uid: '', groups: [...cert.organizations], extra: {} },
      };
    },
  };
}
