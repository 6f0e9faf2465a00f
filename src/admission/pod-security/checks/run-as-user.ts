/** Restricted, v1.23+: neither pod nor container sets runAsUser=0 (upstream check_runAsUser.go). */
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

const runAsUser_1_23: CheckPodFn = (_meta, spec) => {
  const badSetters: string[] = [];
  if (podSecurityContext(spec)?.['runAsUser'] === 0) badSetters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (containerSecurityContext(c)?.['runAsUser'] === 0) bad.push(containerName(c));
  });
  if (bad.length > 0)
    badSetters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
  if (badSetters.length === 0) return allowedResult;
  return forbiddenResult('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`);
};

export const runAsUserCheck: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [{ minimumVersion: 23, checkPod: runAsUser_1_23 }],
};
