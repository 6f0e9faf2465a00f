/**
 * EventRateLimit's configuration (upstream's internal eventratelimit.Configuration, decoded from
 * the `eventratelimit.admission.k8s.io/v1alpha1` `Configuration` kind): the limits to enforce, one
 * per type, each a token bucket of `qps` refills a second up to `burst`, kept per key in an LRU
 * cache of `cacheSize` buckets (0 means 4096; ignored for the Server type).
 */

export const limitTypes = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
export type LimitType = (typeof limitTypes)[number];

export interface Limit {
  /** One of {@link limitTypes} once validated. */
  readonly type: string;
  readonly qps: number;
  readonly burst: number;
  readonly cacheSize: number;
}

export interface Configuration {
  /** null is Go's nil slice: no `limits` given (or no configuration at all). */
  readonly limits: readonly Limit[] | null;
}

export const configurationGroupVersion = 'eventratelimit.admission.k8s.io/v1alpha1';
export const configurationKind = 'Configuration';

/** The cache size of a limit that names none. */
export const defaultCacheSize = 4096;

export function isLimitType(t: string): t is LimitType {
  return (limitTypes as readonly string[]).includes(t);
}
