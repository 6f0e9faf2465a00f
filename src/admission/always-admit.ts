/**
 * AlwaysAdmit (kube-apiserver v1.27, deprecated since v1.13; upstream plugin/pkg/admission/admit):
 * lets every request through, on every operation. Like upstream it logs a deprecation warning
 * when it is built.
 */
import type { AdmissionDependencies } from './dependencies.js';
import { allOperations } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const pluginName = 'AlwaysAdmit';

export function alwaysAdmitPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  deps.log(
    `${pluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`,
  );
  return {
    name: pluginName,
    operations: allOperations,
    admit() {
      // Admits everything.
    },
    validate() {
      // Admits everything.
    },
  };
}
