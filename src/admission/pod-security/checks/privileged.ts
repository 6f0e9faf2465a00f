/** Baseline, v1.0+: no container sets securityContext.privileged=true (upstream check_privileged.go). */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  type Check,
  type CheckPodFn,
} from '../check.js';
import { containerName, containerSecurityContext, visitContainers } from '../pod-fields.js';

const privileged_1_0: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (containerSecurityContext(c)?.['privileged'] === true) bad.push(containerName(c));
  });
  if (bad.length === 0) return allowedResult;
  return forbiddenResult(
    'privileged',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.privileged=true`,
  );
};

export const privilegedCheck: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: privileged_1_0 }],
};
