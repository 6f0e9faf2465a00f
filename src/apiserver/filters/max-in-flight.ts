/**
 * In-flight limits (upstream WithMaxInFlightLimit, `--max-requests-inflight` 400 and
 * `--max-mutating-requests-inflight` 200): requests beyond them get 429 with `Retry-After: 1`.
 * Long-running requests and `system:masters` are not limited. API Priority and Fairness replaces
 * this stage when it lands (issue #12).
 */
import { isPrivileged } from '../../machinery/user.js';
import type { Filter } from '../context.js';
import { userOf } from '../context.js';
import { ChainResponseError } from './chain-response.js';

export interface InFlightLimits {
  readonly nonMutating: number;
  readonly mutating: number;
}

const readVerbs = new Set(['get', 'list', 'watch']);

export function withMaxInFlight(limits: InFlightLimits): Filter {
  let reading = 0;
  let writing = 0;
  return async (ctx, next) => {
    if (ctx.longRunning || isPrivileged(userOf(ctx))) return next(ctx);
    const verb = ctx.info.isResourceRequest ? ctx.info.verb : ctx.info.method;
    const mutating = !readVerbs.has(verb);
    const limit = mutating ? limits.mutating : limits.nonMutating;
    if (limit > 0 && (mutating ? writing : reading) >= limit) {
      throw new ChainResponseError(429, 'Too many requests, please try again later.\n', {
        'retry-after': '1',
      });
    }
    if (mutating) writing++;
    else reading++;
    try {
      await next(ctx);
    } finally {
      if (mutating) writing--;
      else reading--;
    }
  };
}
