/**
 * Request deadlines (upstream WithRequestDeadline): a request that is not long-running must end
 * within `--request-timeout` (60 s) or the shorter `?timeout=` it asks for; its signal aborts then.
 */
import { apiErrors } from '../../machinery/errors.js';
import { GoDurationError, parseGoDuration } from '../../util/go-duration.js';
import type { Filter } from '../context.js';

const invalidTimeout = 'invalid timeout specified in the request URL';
const deadlinePassed = new Error('the request deadline passed');

export function withRequestDeadline(maximumMs: number): Filter {
  return async (ctx, next) => {
    if (ctx.longRunning) return next(ctx);
    const value = ctx.url.searchParams.get('timeout') ?? '';
    let timeout = maximumMs;
    if (value !== '') {
      let asked: number;
      try {
        asked = parseGoDuration(value);
      } catch (err) {
        if (err instanceof GoDurationError) throw apiErrors.badRequest(`${invalidTimeout} - ${err.message}`);
        throw err;
      }
      if (asked > 0 && asked < maximumMs) timeout = asked;
    }
    const started = Number(ctx.received / 1_000_000n);
    const remaining = Math.max(0, timeout - (Number(process.hrtime.bigint() / 1_000_000n) - started));
    // The request's own signal aborts at the deadline (no second signal per request).
    const timer = setTimeout(() => ctx.abort(deadlinePassed), remaining);
    try {
      await next({ ...ctx, deadline: Date.now() + remaining });
    } finally {
      clearTimeout(timer);
    }
  };
}
