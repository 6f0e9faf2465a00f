/**
 * The CEL validation of CRDs and custom resources, loaded on first use: the engine
 * (@bufbuild/cel, its protobuf descriptors, re2js) costs about 60 ms of start-up and 4 MiB that
 * a server without CRD rules should not pay. The registry awaits it before it validates a CRD or a
 * custom resource (RESTStrategy.loadValidation returns `celValidationPending()`); after that
 * `celValidation()` hands out the module synchronously. RE2 comes with it: CRD validation checks
 * `pattern`s.
 */
import { lazyModule } from '../../util/lazy-module.js';
import { loadRe2 } from '../../util/re2.js';
import type * as celValidationModule from './index.js';

const module = lazyModule('the CEL engine', async () => {
  const [m] = await Promise.all([import('./index.js'), loadRe2()]);
  return m;
});

/** Undefined when loaded, else the promise of loading (what RESTStrategy.loadValidation returns). */
export const celValidationPending: () => Promise<void> | undefined = module.pending;

/** The module; throws when it is not loaded yet (a programming error). */
export const celValidation: () => typeof celValidationModule = module.get;
