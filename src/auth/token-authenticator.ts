/**
 * Bearer tokens (upstream authenticator.Token, tokenunion and bearertoken): token authenticators
 * are asked in order, the first that names a user wins; a token none accepts fails the request
 * with every reason given ("invalid bearer token" first, as kube-apiserver reports it).
 * `Authorization` schemes other than Bearer are refused: nothing here verifies them, and a
 * credential that cannot be verified fails the request instead of passing as anonymous.
 */
import type { UserInfo } from '../machinery/user.js';
import type { Authenticator, AuthenticationResult, Credentials } from './authenticator.js';

export type TokenResult =
  | {
      readonly kind: 'authenticated';
      readonly user: UserInfo;
      readonly audiences: readonly string[];
      readonly warnings?: readonly string[];
      readonly auditAnnotations?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'none' }
  /** Every reason, in order (an aggregate's errors). */
  | { readonly kind: 'failed'; readonly reasons: readonly string[] };

export interface TokenAuthenticator {
  /** `audiences`: the audiences asked for (the API audiences, or a TokenReview's). */
  authenticateToken(token: string, audiences: readonly string[]): Promise<TokenResult>;
}

/** upstream utilerrors.NewAggregate(...).Error(): one message alone, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (messages.length === 1 || unique.length === 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

export const invalidBearerToken = 'invalid bearer token';

/** upstream tokenunion.New (not failing on the first error). */
export function unionTokenAuthenticator(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token, audiences) {
      const reasons: string[] = [];
      for (const a of authenticators) {
        const r = await a.authenticateToken(token, audiences);
        if (r.kind === 'authenticated') return r;
        if (r.kind === 'failed') reasons.push(...r.reasons);
      }
      return reasons.length === 0 ? { kind: 'none' } : { kind: 'failed', reasons };
    },
  };
}

export interface BearerTokenOptions {
  readonly tokens: TokenAuthenticator;
  /** `--api-audiences`: what a request's token must be meant for unless the caller says otherwise. */
  readonly apiAudiences: readonly string[];
}

/** The request authenticator over the token authenticators: `Authorization: Bearer <token>`. */
export function bearerTokenAuthenticator(o: BearerTokenOptions): Authenticator {
  return {
    async authenticate(c: Credentials): Promise<AuthenticationResult> {
      const header = (c.authorization ?? '').trim();
      if (header === '') return { kind: 'none' };
      const parts = header.split(' ');
      const scheme = parts[0] ?? '';
      if (scheme.toLowerCase() !== 'bearer') {
        return { kind: 'failed', reason: `no authenticator accepts ${scheme} credentials` };
      }
      // Go's strings.SplitN(auth, " ", 3): the token is the second field.
      const token = parts[1] ?? '';
      // An empty bearer token is no credential (upstream: not recognised).
      if (token === '') return { kind: 'none' };
      const r = await o.tokens.authenticateToken(token, c.audiences ?? o.apiAudiences);
      if (r.kind === 'authenticated') {
        return {
          kind: 'authenticated',
          user: r.user,
          audiences: r.audiences,
          ...(r.warnings !== undefined ? { warnings: r.warnings } : {}),
          ...(r.auditAnnotations !== undefined ? { auditAnnotations: r.auditAnnotations } : {}),
        };
      }
      if (r.kind === 'none') return { kind: 'failed', reason: invalidBearerToken };
      return { kind: 'failed', reason: aggregateMessage([invalidBearerToken, ...r.reasons]) };
    },
  };
}
