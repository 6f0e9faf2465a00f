/** Several authorizers in order (upstream union): the first allow or deny decides; else no opinion. */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from './authorizer.js';
import { noOpinion } from './authorizer.js';

export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
      const reasons: string[] = [];
      for (const z of authorizers) {
        const r = await z.authorize(a);
        if (r.decision !== 'noOpinion') return r;
        if (r.reason !== '') reasons.push(r.reason);
      }
      return reasons.length === 0 ? noOpinion : { decision: 'noOpinion', reason: reasons.join(', ') };
    },
  };
}
