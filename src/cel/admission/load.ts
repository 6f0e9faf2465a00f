/**
 * The CEL engine of admission (ValidatingAdmissionPolicy expressions, webhook matchConditions)
 * loaded on first use, as the CRD validation engine is (../validation/load.ts): @bufbuild/cel, its
 * protobuf descriptors and re2js cost start-up time and memory that a server without policies or
 * match conditions should not pay. The admissionregistration strategies await it before they
 * validate (RESTStrategy.loadValidation returns `celAdmissionPending()`); after that
 * `celAdmission()` hands out the module synchronously.
 */
import { lazyModule } from '../../util/lazy-module.js';
import type * as celAdmissionModule from './index.js';

const module = lazyModule('the CEL admission engine', () => import('./index.js'));

/** Loads the engine (once); what code paths that use it next await. */
export const loadCelAdmission: () => Promise<void> = module.load;

/** Undefined when loaded, else the promise of loading (what RESTStrategy.loadValidation returns). */
export const celAdmissionPending: () => Promise<void> | undefined = module.pending;

/** The module; throws when it is not loaded yet (a programming error). */
export const celAdmission: () => typeof celAdmissionModule = module.get;
