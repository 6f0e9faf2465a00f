/** Baseline, v1.0+: securityContext.procMount unset or `Default` (upstream check_procMount.go). */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  sortedSet,
  type Check,
  type CheckPodFn,
} from '../check.js';
import { containerName, containerSecurityContext, visitContainers } from '../pod-fields.js';

const procMount_1_0: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (c) => {
    const procMount = containerSecurityContext(c)?.['procMount'];
    if (typeof procMount !== 'string' || procMount === 'Default') return;
    bad.push(containerName(c));
    types.push(procMount);
  });
  if (bad.length === 0) return allowedResult;
  return forbiddenResult(
    'procMount',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.procMount to ` +
      joinQuote(sortedSet(types)),
  );
};

export const procMountCheck: Check = {
  id: 'procMount',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: procMount_1_0 }],
};
