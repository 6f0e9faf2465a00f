/**
 * Restricted, v1.22+ (replacing the baseline capabilities check): every container drops ALL and
 * adds at most NET_BIND_SERVICE; from v1.25 Windows pods are exempt (upstream
 * check_capabilities_restricted.go).
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
  isWindowsPod,
  objectField,
  stringsField,
  visitContainers,
} from '../pod-fields.js';
import { capabilitiesBaselineID } from './capabilities-baseline.js';

const capabilitiesRestricted_1_22: CheckPodFn = (_meta, spec) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  visitContainers(spec, (c) => {
    const caps = objectField(containerSecurityContext(c), 'capabilities');
    if (caps === undefined) {
      missingDropAll.push(containerName(c));
      return;
    }
    if (!stringsField(caps, 'drop').includes('ALL')) missingDropAll.push(containerName(c));
    let added = false;
    for (const cap of stringsField(caps, 'add')) {
      if (cap !== 'NET_BIND_SERVICE') {
        added = true;
        forbiddenCapabilities.push(cap);
      }
    }
    if (added) addingForbidden.push(containerName(c));
  });
  const details: string[] = [];
  if (missingDropAll.length > 0) {
    details.push(
      `${pluralize('container', 'containers', missingDropAll.length)} ${joinQuote(missingDropAll)} ` +
        'must set securityContext.capabilities.drop=["ALL"]',
    );
  }
  if (addingForbidden.length > 0) {
    details.push(
      `${pluralize('container', 'containers', addingForbidden.length)} ${joinQuote(addingForbidden)} ` +
        `must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`,
    );
  }
  if (details.length === 0) return allowedResult;
  return forbiddenResult('unrestricted capabilities', details.join('; '));
};

const capabilitiesRestricted_1_25: CheckPodFn = (meta, spec) =>
  isWindowsPod(spec) ? allowedResult : capabilitiesRestricted_1_22(meta, spec);

export const capabilitiesRestrictedCheck: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 22, checkPod: capabilitiesRestricted_1_22, overrideCheckIDs: [capabilitiesBaselineID] },
    { minimumVersion: 25, checkPod: capabilitiesRestricted_1_25, overrideCheckIDs: [capabilitiesBaselineID] },
  ],
};
