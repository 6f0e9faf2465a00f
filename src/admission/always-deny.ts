/**
 * AlwaysDeny (kube-apiserver v1.27, deprecated since v1.13; upstream plugin/pkg/admission/deny):
 * refuses every request, on every operation, in both the mutating and the validating phase (so
 * deletes and connects, which carry no object, are refused too). Like upstream it logs a
 * deprecation warning when it is built.
 */
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { allOperations } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const pluginName = 'AlwaysDeny';

function deny(a: AdmissionAttributes): never {
  throw newForbidden(a, 'admission control is denying all modifications');
}

export function alwaysDenyPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  deps.log(
    `${pluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`,
  );
  return { name: pluginName, operations: allOperations, admit: deny, validate: deny };
}
