/**
 * Baseline, v1.0+: neither pod nor container sets windowsOptions.hostProcess=true (upstream
 * check_windowsHostProcess.go).
 */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  type Check,
  type CheckPodFn,
} from '../check.js';
import {
  containerName,
  containerSecurityContext,
  objectField,
  podSecurityContext,
  visitContainers,
} from '../pod-fields.js';
import type { JsonObject } from '../../../util/json.js';

function hostProcess(securityContext: JsonObject | undefined): boolean {
  return objectField(securityContext, 'windowsOptions')?.['hostProcess'] === true;
}

const windowsHostProcess_1_0: CheckPodFn = (_meta, spec) => {
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    if (hostProcess(containerSecurityContext(c))) badContainers.push(containerName(c));
  });
  const setters: string[] = [];
  if (hostProcess(podSecurityContext(spec))) setters.push('pod');
  if (badContainers.length > 0) {
    setters.push(`${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`);
  }
  if (setters.length === 0) return allowedResult;
  return forbiddenResult(
    'hostProcess',
    `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
  );
};

export const windowsHostProcessCheck: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: windowsHostProcess_1_0 }],
};
