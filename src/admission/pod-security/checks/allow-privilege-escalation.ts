/**
 * Restricted, v1.8+: every container sets securityContext.allowPrivilegeEscalation=false; from
 * v1.25 Windows pods are exempt (upstream check_allowPrivilegeEscalation.go).
 */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  type Check,
  type CheckPodFn,
} from '../check.js';
import { containerName, containerSecurityContext, isWindowsPod, visitContainers } from '../pod-fields.js';

const allowPrivilegeEscalation_1_8: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (containerSecurityContext(c)?.['allowPrivilegeEscalation'] !== false) bad.push(containerName(c));
  });
  if (bad.length === 0) return allowedResult;
  return forbiddenResult(
    'allowPrivilegeEscalation != false',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
};

const allowPrivilegeEscalation_1_25: CheckPodFn = (meta, spec) =>
  isWindowsPod(spec) ? allowedResult : allowPrivilegeEscalation_1_8(meta, spec);

export const allowPrivilegeEscalationCheck: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: 8, checkPod: allowPrivilegeEscalation_1_8 },
    { minimumVersion: 25, checkPod: allowPrivilegeEscalation_1_25 },
  ],
};
