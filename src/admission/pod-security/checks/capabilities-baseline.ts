/**
 * Baseline, v1.0+: containers may only add capabilities of the container runtime's default set
 * (upstream check_capabilities_baseline.go).
 */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  sortedSet,
  type Check,
  type CheckPodFn,
} from '../check.js';
import {
  containerName,
  containerSecurityContext,
  objectField,
  stringsField,
  visitContainers,
} from '../pod-fields.js';

export const capabilitiesBaselineID = 'capabilities_baseline';

const allowed_1_0: ReadonlySet<string> = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

const capabilitiesBaseline_1_0: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const nonDefault: string[] = [];
  visitContainers(spec, (c) => {
    const caps = objectField(containerSecurityContext(c), 'capabilities');
    if (caps === undefined) return;
    let valid = true;
    for (const cap of stringsField(caps, 'add')) {
      if (!allowed_1_0.has(cap)) {
        valid = false;
        nonDefault.push(cap);
      }
    }
    if (!valid) bad.push(containerName(c));
  });
  if (bad.length === 0) return allowedResult;
  return forbiddenResult(
    'non-default capabilities',
    `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not include ` +
      `${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`,
  );
};

export const capabilitiesBaselineCheck: Check = {
  id: capabilitiesBaselineID,
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: capabilitiesBaseline_1_0 }],
};
