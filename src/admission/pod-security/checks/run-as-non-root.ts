/**
 * Restricted, v1.0+: runAsNonRoot=true on the pod or on every container, and false nowhere
 * (upstream check_runAsNonRoot.go).
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
  podSecurityContext,
  visitContainers,
} from '../pod-fields.js';

const runAsNonRoot_1_0: CheckPodFn = (_meta, spec) => {
  const badSetters: string[] = [];
  let podRunAsNonRoot = false;
  const podValue = podSecurityContext(spec)?.['runAsNonRoot'];
  if (typeof podValue === 'boolean') {
    if (!podValue) badSetters.push('pod');
    else podRunAsNonRoot = true;
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const value = containerSecurityContext(c)?.['runAsNonRoot'];
    if (typeof value === 'boolean') {
      if (!value) explicitlyBad.push(containerName(c));
    } else if (!podRunAsNonRoot) {
      implicitlyBad.push(containerName(c));
    }
  });
  if (explicitlyBad.length > 0) {
    badSetters.push(
      `${pluralize('container', 'containers', explicitlyBad.length)} ${joinQuote(explicitlyBad)}`,
    );
  }
  if (badSetters.length > 0) {
    return forbiddenResult(
      'runAsNonRoot != true',
      `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
    );
  }
  if (implicitlyBad.length > 0) {
    return forbiddenResult(
      'runAsNonRoot != true',
      `pod or ${pluralize('container', 'containers', implicitlyBad.length)} ${joinQuote(implicitlyBad)} ` +
        'must set securityContext.runAsNonRoot=true',
    );
  }
  return allowedResult;
};

export const runAsNonRootCheck: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [{ minimumVersion: 0, checkPod: runAsNonRoot_1_0 }],
};
