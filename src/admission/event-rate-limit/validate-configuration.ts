/**
 * Upstream's ValidateConfiguration for EventRateLimit (v1.27): at least one limit; each of a known
 * type, with positive burst and qps, and (except Server limits) a cache size that is not
 * negative. Upstream lists the supported types in Go map order (random); they are listed here in
 * declaration order.
 */
import { fieldErrors, FieldPath, goRendered } from '../../machinery/field/errors.js';
import type { FieldError } from '../../machinery/field/errors.js';
import { isLimitType, limitTypes } from './configuration.js';
import type { Configuration } from './configuration.js';

export function validateConfiguration(config: Configuration): FieldError[] {
  const errs: FieldError[] = [];
  const limitsPath = FieldPath.root('limits');
  if (config.limits === null || config.limits.length === 0) {
    const value = config.limits === null ? '[]eventratelimit.Limit(nil)' : '[]eventratelimit.Limit{}';
    errs.push(fieldErrors.invalid(limitsPath, goRendered(value), 'must not be empty'));
  }
  for (const [i, limit] of (config.limits ?? []).entries()) {
    const idx = limitsPath.index(i);
    if (!isLimitType(limit.type)) {
      errs.push(fieldErrors.notSupported(idx.child('type'), limit.type, limitTypes));
    }
    if (limit.burst <= 0) errs.push(fieldErrors.invalid(idx.child('burst'), limit.burst, 'must be positive'));
    if (limit.qps <= 0) errs.push(fieldErrors.invalid(idx.child('qps'), limit.qps, 'must be positive'));
    if (limit.type !== 'Server' && limit.cacheSize < 0) {
      errs.push(fieldErrors.invalid(idx.child('cacheSize'), limit.cacheSize, 'must not be negative'));
    }
  }
  return errs;
}
