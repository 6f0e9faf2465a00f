/**
 * RE2 regular expressions (re2js), loaded on first use. Only CRD and custom resource validation
 * need them (Go's regexp semantics for `pattern` and formats), and evaluating re2js's Unicode
 * tables costs start-up time and memory that a server without CRDs should not pay. Whatever calls
 * `re2()` must have awaited `loadRe2()` first (the registry does so before validating).
 */
import type { RE2JS } from 're2js';

let loaded: typeof RE2JS | undefined;
let loading: Promise<void> | undefined;

/** Loads re2js; resolves at once when it is already loaded. */
export function loadRe2(): Promise<void> {
  loading ??= import('re2js').then((m) => {
    loaded = m.RE2JS;
  });
  return loading;
}

/** Whether `re2()` may be called. */
export function re2Loaded(): boolean {
  return loaded !== undefined;
}

/** The RE2JS class; throws when `loadRe2()` has not completed (a programming error). */
export function re2(): typeof RE2JS {
  if (loaded === undefined) throw new Error('re2js is not loaded: await loadRe2() before validating');
  return loaded;
}
