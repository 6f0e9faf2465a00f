/**
 * EventRateLimit (kube-apiserver v1.27's plugin/pkg/admission/eventratelimit), validating: creates
 * and updates of core `Event`s (kind Event of the core group; events.k8s.io requests carry that
 * group's kind and are not limited) take a token from every configured limit, each asked even
 * when another already refused; any refusal is a 429 `Too many requests: <reasons>` (reason
 * TooManyRequests, no details). Dry-run requests are let through without taking tokens.
 *
 * The configuration comes from the admission configuration file; without one, or with a bad one,
 * the plugin refuses to start (the factory throws), as upstream's does.
 */
import { StatusError } from '../../machinery/errors.js';
import { aggregateMessage } from '../../machinery/labels/requirement.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import { createUpdate } from '../plugin.js';
import type { AdmissionPlugin } from '../plugin.js';
import { isLimitType } from './configuration.js';
import type { Configuration } from './configuration.js';
import { LimitEnforcer } from './limit-enforcer.js';
import { loadConfiguration } from './load-configuration.js';

export const eventRateLimitPluginName = 'EventRateLimit';

/** The validating step over an already validated configuration, on the given clock (ms). */
export function eventRateLimit(config: Configuration, now: () => number): (a: AdmissionAttributes) => void {
  const enforcers = (config.limits ?? []).map((limit) => {
    if (!isLimitType(limit.type)) throw new Error(`unknown event rate limit type: ${limit.type}`);
    return new LimitEnforcer(limit.type, limit);
  });
  return (a) => {
    if (a.resource.group !== '' || a.resource.kind !== 'Event') return;
    if (a.dryRun) return;
    const nowMs = now();
    const reasons: string[] = [];
    for (const enforcer of enforcers) {
      const reason = enforcer.accept(a, nowMs);
      if (reason !== undefined) reasons.push(reason);
    }
    if (reasons.length > 0) {
      throw new StatusError(429, 'TooManyRequests', `Too many requests: ${aggregateMessage(reasons)}`);
    }
  };
}

/** Throws (at start-up) when the configuration is missing or invalid. */
export function eventRateLimitPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const config = loadConfiguration(deps.pluginConfig(eventRateLimitPluginName));
  return {
    name: eventRateLimitPluginName,
    operations: createUpdate,
    validate: eventRateLimit(config, deps.now),
  };
}
