/**
 * Several authorizers in order (upstream union): the first allow or deny decides; else no opinion
 * with every reason given, one per line. Rules (SelfSubjectRulesReview) come from the authorizers
 * that can list them (upstream's rule resolvers); the privileged-group authorizer lists none.
 */
import type { UserInfo } from '../machinery/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from './authorizer.js';
import { noOpinion } from './authorizer.js';

export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    // Synchronous while every authorizer answers synchronously (RBAC, Node and the built-ins do),
    // so that CEL's `authorizer` checks (cel-authorizer.ts) can ask the same union.
    authorize(a: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult> {
      const reasons: string[] = [];
      const done = (): AuthorizationResult =>
        reasons.length === 0 ? noOpinion : { decision: 'noOpinion', reason: reasons.join('\n') };
      const rest = async (
        from: number,
        pending: Promise<AuthorizationResult>,
      ): Promise<AuthorizationResult> => {
        let r = await pending;
        for (let i = from; ;) {
          if (r.decision !== 'noOpinion') return r;
          if (r.reason !== '') reasons.push(r.reason);
          if (++i >= authorizers.length) return done();
          r = await authorizers[i]!.authorize(a);
        }
      };
      for (let i = 0; i < authorizers.length; i++) {
        const r = authorizers[i]!.authorize(a);
        if (r instanceof Promise) return rest(i, r);
        if (r.decision !== 'noOpinion') return r;
        if (r.reason !== '') reasons.push(r.reason);
      }
      return done();
    },
    async rulesFor(user: UserInfo, namespace: string): Promise<UserRules> {
      const resourceRules: UserRules['resourceRules'][number][] = [];
      const nonResourceRules: UserRules['nonResourceRules'][number][] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const z of authorizers) {
        if (z.rulesFor === undefined) continue;
        const r = await z.rulesFor(user, namespace);
        resourceRules.push(...r.resourceRules);
        nonResourceRules.push(...r.nonResourceRules);
        incomplete ||= r.incomplete;
        if (r.evaluationError !== undefined) errors.push(r.evaluationError);
      }
      // utilerrors.NewAggregate over the resolvers' errors.
      const unique = [...new Set(errors)];
      const evaluationError = unique.length <= 1 ? unique[0] : `[${unique.join(', ')}]`;
      return {
        resourceRules,
        nonResourceRules,
        incomplete,
        ...(evaluationError !== undefined ? { evaluationError } : {}),
      };
    },
  };
}
