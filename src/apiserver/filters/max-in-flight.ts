/**
 * In-flight limits (upstream WithMaxInFlightLimit, `--max-requests-inflight` 400 and
 * `--max-mutating-requests-inflight` 200): requests beyond them get 429 with `Retry-After: 1`,
 * counted in `apiserver_request_total` with code 429 as upstream's RecordDroppedRequest does.
 * Long-running requests and `system:masters` are not limited. API Priority and Fairness replaces
 * this stage when it lands.
 *
 * `apiserver_current_inflight_requests` gets the watermark of executing requests of each kind,
 * `system:masters` included (as v1.27's default, API Priority and Fairness, counts exempt ones).
 */
import { isPrivileged } from '../../machinery/user.js';
import type { Filter } from '../context.js';
import { userOf } from '../context.js';
import type { InflightWatermark } from '../metrics/inflight.js';
import { recordDropped } from '../metrics/instrument.js';
import { ChainResponseError } from './chain-response.js';

export interface InFlightLimits {
  readonly nonMutating: number;
  readonly mutating: number;
}

const readVerbs = new Set(['get', 'list', 'watch']);

export function withMaxInFlight(limits: InFlightLimits, watermark?: InflightWatermark): Filter {
  /** Requests holding a slot, and every request executing (privileged ones too), per kind. */
  let reading = 0;
  let writing = 0;
  let readingAll = 0;
  let writingAll = 0;
  return async (ctx, next) => {
    if (ctx.longRunning) return next(ctx);
    const verb = ctx.info.isResourceRequest ? ctx.info.verb : ctx.info.method;
    const mutating = !readVerbs.has(verb);
    const limited = !isPrivileged(userOf(ctx));
    if (limited) {
      const limit = mutating ? limits.mutating : limits.nonMutating;
      if (limit > 0 && (mutating ? writing : reading) >= limit) {
        recordDropped(ctx);
        throw new ChainResponseError(429, 'Too many requests, please try again later.\n', {
          'retry-after': '1',
        });
      }
      if (mutating) writing++;
      else reading++;
    }
    watermark?.record(mutating, mutating ? ++writingAll : ++readingAll);
    try {
      await next(ctx);
    } finally {
      if (limited) {
        if (mutating) writing--;
        else reading--;
      }
      watermark?.record(mutating, mutating ? --writingAll : --readingAll);
    }
  };
}
