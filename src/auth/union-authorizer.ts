/** Several authorizers in order (upstream union): the first allow or deny decides; else no opinion. */
import type { UserInfo } from '../machinery/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from './authorizer.js';
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
    async rulesFor(user: UserInfo, namespace: string): Promise<UserRules> {
      const resourceRules: UserRules['resourceRules'][number][] = [];
      const nonResourceRules: UserRules['nonResourceRules'][number][] = [];
      let incomplete = false;
      for (const z of authorizers) {
        if (z.rulesFor === undefined) {
          incomplete = true;
          continue;
        }
        const r = await z.rulesFor(user, namespace);
        resourceRules.push(...r.resourceRules);
        nonResourceRules.push(...r.nonResourceRules);
        incomplete ||= r.incomplete;
      }
      return { resourceRules, nonResourceRules, incomplete };
    },
  };
}
