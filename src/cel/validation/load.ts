/**
 * The CEL validation of CRDs and custom resources, loaded on first use: the engine
 * (@bufbuild/cel, its protobuf descriptors, re2js) costs about 60 ms of start-up and 4 MiB that
 * a server without CRD rules should not pay. The registry awaits `loadCelValidation()` before it
 * validates a CRD or a custom resource (RESTStrategy.loadValidation); after that `celValidation()`
 * hands out the module synchronously.
 */
import { loadRe2 } from '../../util/re2.js';
import type * as celValidationModule from './index.js';

export type CelValidation = typeof celValidationModule;

let loaded: CelValidation | undefined;
let loading: Promise<void> | undefined;

/** Loads the CEL validation module (and RE2); resolves at once when it is loaded. */
export function loadCelValidation(): Promise<void> {
  loading ??= Promise.all([import('./index.js'), loadRe2()]).then(([m]) => {
    loaded = m;
  });
  return loading;
}

/** Undefined when loaded, else the promise of loading (what RESTStrategy.loadValidation returns). */
export function celValidationPending(): Promise<void> | undefined {
  return loaded === undefined ? loadCelValidation() : undefined;
}

/** The module; throws when `loadCelValidation()` has not completed (a programming error). */
export function celValidation(): CelValidation {
  if (loaded === undefined) throw new Error('CEL is not loaded: await loadCelValidation() before validating');
  return loaded;
}
