/** Baseline, v1.0+: no hostNetwork, hostPID or hostIPC (upstream check_hostNamespaces.go). */
import { allowedResult, forbiddenResult, type Check, type CheckPodFn } from '../check.js';

const hostNamespaces_1_0: CheckPodFn = (_meta, spec) => {
  const set: string[] = [];
  if (spec['hostNetwork'] === true) set.push('hostNetwork=true');
  if (spec['hostPID'] === true) set.push('hostPID=true');
  if (spec['hostIPC'] === true) set.push('hostIPC=true');
  if (set.length === 0) return allowedResult;
  return forbiddenResult('host namespaces', set.join(', '));
};

export const hostNamespacesCheck: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostNamespaces_1_0 }],
};
