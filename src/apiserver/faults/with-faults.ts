/**
 * The request-chain stage that injects faults (after authorization, so only requests the server
 * would serve are hit). A matching rule delays the request, refuses it with its status as
 * kube-apiserver words that status, answers 410 Gone, or, for a watch, lets it start and then
 * closes it cleanly or resets its stream.
 */
import { apiErrors, StatusError } from '../../machinery/errors.js';
import type { Filter, RequestContext } from '../context.js';
import { userOf } from '../context.js';
import { cancelResponse } from '../response.js';
import { realClock } from '../../util/clock.js';
import type { CheckedRule } from './fault-rule.js';
import type { FaultInjector, FaultTarget } from './fault-injector.js';

function targetOf(ctx: RequestContext): FaultTarget {
  const i = ctx.info;
  return {
    verb: i.verb,
    group: i.group,
    resource: i.resource,
    subresource: i.subresource,
    namespace: i.namespace,
    name: i.name,
    user: userOf(ctx).name,
  };
}

/** The refusal a rule stands for, as upstream words that status. */
export function faultError(rule: CheckedRule, ctx: RequestContext): StatusError | undefined {
  const gr = { group: ctx.info.group, resource: ctx.info.resource };
  if (rule.expire) {
    const rv = ctx.url.searchParams.get('resourceVersion') ?? '';
    return apiErrors.resourceExpired(
      rule.message ?? `too old resource version: ${rv === '' ? '0' : rv} (injected fault)`,
    );
  }
  switch (rule.status) {
    case 409:
      return rule.message !== undefined
        ? apiErrors.conflict(gr, ctx.info.name, rule.message)
        : apiErrors.modifiedConflict(gr, ctx.info.name);
    case 429:
      return new StatusError(
        429,
        'TooManyRequests',
        rule.message ?? 'Too many requests, please try again later.',
        {
          retryAfterSeconds: rule.retryAfterSeconds ?? 1,
        },
      );
    case 500:
      return apiErrors.internal(new Error(rule.message ?? 'injected fault'));
    case 503: {
      const e = apiErrors.serviceUnavailable(
        rule.message ?? 'the server is currently unable to handle the request',
      );
      if (rule.retryAfterSeconds !== undefined)
        e.status.details = { retryAfterSeconds: rule.retryAfterSeconds };
      return e;
    }
    case 504:
      return apiErrors.timeout(
        rule.message ?? 'request did not complete within requested timeout - context deadline exceeded',
        rule.retryAfterSeconds ?? 0,
      );
    default:
      return undefined;
  }
}

/** Runs `act` once the response has started (a watch's headers are out), or when it ends. */
function onceStarted(ctx: RequestContext, act: () => void): void {
  let tries = 0;
  const check = (): void => {
    if (ctx.res.headersSent || ctx.signal.aborted || tries++ > 1000) act();
    else setTimeout(check, 1);
  };
  setImmediate(check);
}

export function withFaults(injector: FaultInjector): Filter {
  return async (ctx, next) => {
    if (!ctx.info.isResourceRequest) return next(ctx);
    const target = targetOf(ctx);
    const isWatch = ctx.info.verb === 'watch';
    let untrack: (() => void) | undefined;
    if (isWatch) {
      untrack = injector.track({
        target,
        close: () => ctx.abort(new Error('watch closed by an injected fault')),
        drop: () => cancelResponse(ctx.res),
      });
    }
    try {
      const rule = injector.active ? injector.take(target) : undefined;
      if (rule !== undefined) {
        await realClock.sleep(rule.latencyMs, ctx.signal);
        const error = faultError(rule, ctx);
        if (error !== undefined) throw error;
        if (rule.watch !== undefined) {
          untrack?.();
          onceStarted(ctx, () =>
            rule.watch === 'close'
              ? ctx.abort(new Error('watch closed by an injected fault'))
              : cancelResponse(ctx.res),
          );
        }
      }
      await next(ctx);
    } finally {
      untrack?.();
    }
  };
}
