/** The strategy a write to a subresource uses (`/status`), or none for the main resource. */
import { apiErrors } from '../../machinery/errors.js';
import type { RESTStrategy } from '../../registry/strategy.js';
import type { HandlerContext } from '../endpoint.js';

export function subresourceStrategy(ctx: HandlerContext): { strategy?: RESTStrategy; subresource?: string } {
  const sub = ctx.request.subresource;
  if (sub === '') return {};
  const resource = ctx.endpoint.store.resource;
  if (sub === 'status' && resource.statusStrategy !== undefined) {
    return { strategy: resource.statusStrategy, subresource: 'status' };
  }
  const strategy = resource.subresourceStrategies?.[sub];
  if (strategy !== undefined) return { strategy, subresource: sub };
  throw apiErrors.notFoundPath();
}
