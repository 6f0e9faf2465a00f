/**
 * Restricted, v1.19+ (replacing the baseline seccomp check): the pod, or every container, sets
 * seccompProfile.type to `RuntimeDefault` or `Localhost`; from v1.25 Windows pods are exempt
 * (upstream check_seccompProfile_restricted.go).
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
  podSecurityContext,
  stringField,
  visitContainers,
} from '../pod-fields.js';
import { seccompBaselineID } from './seccomp-profile-baseline.js';
import { validSeccompType } from './seccomp.js';

const seccompProfileRestricted_1_19: CheckPodFn = (_meta, spec) => {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podSeccompSet = false;
  const podProfile = objectField(podSecurityContext(spec), 'seccompProfile');
  if (podProfile !== undefined) {
    if (!validSeccompType(stringField(podProfile, 'type'))) {
      badSetters.push('pod');
      badValues.push(stringField(podProfile, 'type'));
    } else {
      podSeccompSet = true;
    }
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const profile = objectField(containerSecurityContext(c), 'seccompProfile');
    if (profile !== undefined) {
      if (!validSeccompType(stringField(profile, 'type'))) {
        explicitlyBad.push(containerName(c));
        badValues.push(stringField(profile, 'type'));
      }
    } else if (!podSeccompSet) {
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
      'seccompProfile',
      `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    );
  }
  if (implicitlyBad.length > 0) {
    return forbiddenResult(
      'seccompProfile',
      `pod or ${pluralize('container', 'containers', implicitlyBad.length)} ${joinQuote(implicitlyBad)} must set ` +
        'securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
    );
  }
  return allowedResult;
};

const seccompProfileRestricted_1_25: CheckPodFn = (meta, spec) =>
  isWindowsPod(spec) ? allowedResult : seccompProfileRestricted_1_19(meta, spec);

export const seccompProfileRestrictedCheck: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 19, checkPod: seccompProfileRestricted_1_19, overrideCheckIDs: [seccompBaselineID] },
    { minimumVersion: 25, checkPod: seccompProfileRestricted_1_25, overrideCheckIDs: [seccompBaselineID] },
  ],
};
