/** Baseline, v1.0+: no container port sets a hostPort (upstream check_hostPorts.go). */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  sortedSet,
  type Check,
  type CheckPodFn,
} from '../check.js';
import { containerName, objectsField, visitContainers } from '../pod-fields.js';

const hostPorts_1_0: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    let valid = true;
    for (const p of objectsField(c, 'ports')) {
      const hostPort = p['hostPort'];
      if (typeof hostPort === 'number' && hostPort !== 0) {
        valid = false;
        ports.push(String(hostPort));
      }
    }
    if (!valid) bad.push(containerName(c));
  });
  if (bad.length === 0) return allowedResult;
  const distinct = sortedSet(ports);
  return forbiddenResult(
    'hostPort',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ` +
      `${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
  );
};

export const hostPortsCheck: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPorts_1_0 }],
};
