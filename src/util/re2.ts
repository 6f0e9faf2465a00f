/**
 * RE2 regular expressions (re2js), loaded on first use. Only CRD and custom resource validation
 * need them (Go's regexp semantics for `pattern` and formats), and evaluating re2js's Unicode
 * tables costs start-up time and memory that a server without CRDs should not pay. Whatever calls
 * `re2()` must have awaited `loadRe2()` first (the registry does so before validating).
 */
import type { RE2JS } from 're2js';
import { lazyModule } from './lazy-module.js';

const module = lazyModule('re2js', async () => (await import('re2js')).RE2JS);

/** Loads re2js; resolves at once when it is already loaded. */
export const loadRe2: () => Promise<void> = module.load;

/** Undefined when loaded (nothing to wait for), else the promise of loading. */
export const re2Pending: () => Promise<void> | undefined = module.pending;

/** The RE2JS class; throws when `loadRe2()` has not completed (a programming error). */
export const re2: () => typeof RE2JS = module.get;
