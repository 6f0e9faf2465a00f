/**
 * API Priority and Fairness (upstream WithPriorityAndFairness, k8s.io/apiserver v1.27): every
 * request but the long-running non-watch ones (exec, attach, port-forward, proxy, log) is
 * classified and handed to the flow controller, which runs it at once (exempt levels), runs it
 * when its level has a seat, or rejects it. A classified request carries the
 * `X-Kubernetes-PF-FlowSchema-UID` and `X-Kubernetes-PF-PriorityLevel-UID` response headers; a
 * rejected one gets 429 "Too many requests, please try again later." with `Retry-After: 1`,
 * counted in `apiserver_request_total` with code 429. A WATCH holds its seat only until it is
 * initialized (watch-initialization.ts); it is then served outside the seat.
 *
 * `apiserver_current_inflight_requests` gets the watermark of executing requests of each kind
 * (upstream: the executing requests of every level, exempt ones included).
 */
import type { FlowController } from '../flowcontrol/controller.js';
import { withInitializationSignal } from '../flowcontrol/watch-initialization.js';
import type { Filter } from '../context.js';
import { userOf } from '../context.js';
import type { InflightWatermark } from '../metrics/inflight.js';
import { recordDropped } from '../metrics/instrument.js';
import { ChainResponseError } from './chain-response.js';

/** Upstream's nonMutatingRequestVerbs. */
const nonMutatingVerbs = new Set(['get', 'list', 'watch']);

export const flowSchemaUIDHeader = 'X-Kubernetes-PF-FlowSchema-UID';
export const priorityLevelUIDHeader = 'X-Kubernetes-PF-PriorityLevel-UID';

export function withPriorityAndFairness(fc: FlowController, watermark?: InflightWatermark): Filter {
  let readOnlyExecuting = 0;
  let mutatingExecuting = 0;
  return async (ctx, next) => {
    const info = ctx.info;
    const isWatch = info.isResourceRequest && info.verb === 'watch';
    if (ctx.longRunning && !isWatch) return next(ctx);
    const verb = info.isResourceRequest ? info.verb : info.method;
    const mutating = !nonMutatingVerbs.has(verb);
    const noteExecuting = (delta: number): void => {
      if (mutating) watermark?.record(true, (mutatingExecuting += delta));
      else watermark?.record(false, (readOnlyExecuting += delta));
    };
    let headers: Record<string, string> | undefined;
    const setHeaders = (): void => {
      if (headers === undefined || ctx.res.headersSent) return;
      for (const [k, v] of Object.entries(headers)) ctx.res.setHeader(k, v);
    };
    // The handler's outcome (a watch keeps running after its seat is released).
    let handled: Promise<void> | undefined;
    const executed = await fc.handle({
      info,
      url: ctx.url,
      user: userOf(ctx),
      signal: ctx.signal,
      onClassified: (fs, pl) => {
        headers = { [priorityLevelUIDHeader]: pl.uid, [flowSchemaUIDHeader]: fs.uid };
      },
      execute: async () => {
        noteExecuting(1);
        try {
          setHeaders();
          if (!isWatch) {
            await next(ctx);
            return;
          }
          await new Promise<void>((initialized) => {
            withInitializationSignal(ctx.req, initialized);
            handled = next(ctx);
            // A watch that ends (or fails) before signalling releases its seat then.
            handled.then(initialized, initialized);
          });
        } finally {
          noteExecuting(-1);
        }
      },
    });
    if (executed) {
      if (handled !== undefined) await handled;
      return;
    }
    setHeaders();
    recordDropped(ctx);
    throw new ChainResponseError(429, 'Too many requests, please try again later.\n', { 'retry-after': '1' });
  };
}
