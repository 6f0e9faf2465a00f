/**
 * Baseline: seccomp profiles, where set, are the runtime default or a localhost one. Before v1.19
 * the alpha annotations are checked, from v1.19 securityContext.seccompProfile.type (upstream
 * check_seccompProfile_baseline.go).
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
import { goQuote } from '../../../machinery/field/errors.js';
import {
  containerName,
  containerSecurityContext,
  objectField,
  podSecurityContext,
  stringField,
  visitContainers,
} from '../pod-fields.js';
import {
  seccompContainerAnnotationPrefix,
  seccompPodAnnotation,
  validSeccompAnnotationValue,
  validSeccompType,
} from './seccomp.js';

export const seccompBaselineID = 'seccompProfile_baseline';

const seccompProfileBaseline_1_0: CheckPodFn = (meta, spec) => {
  const forbidden: string[] = [];
  const podValue = meta.annotations[seccompPodAnnotation];
  if (podValue !== undefined && !validSeccompAnnotationValue(podValue)) {
    forbidden.push(`${seccompPodAnnotation}=${goQuote(podValue)}`);
  }
  visitContainers(spec, (c) => {
    const key = seccompContainerAnnotationPrefix + containerName(c);
    const value = meta.annotations[key];
    if (value !== undefined && !validSeccompAnnotationValue(value))
      forbidden.push(`${key}=${goQuote(value)}`);
  });
  if (forbidden.length === 0) return allowedResult;
  const distinct = sortedSet(forbidden);
  return forbiddenResult(
    'seccompProfile',
    `forbidden ${pluralize('annotation', 'annotations', distinct.length)} ${distinct.join(', ')}`,
  );
};

const seccompProfileBaseline_1_19: CheckPodFn = (_meta, spec) => {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podProfile = objectField(podSecurityContext(spec), 'seccompProfile');
  if (podProfile !== undefined && !validSeccompType(stringField(podProfile, 'type'))) {
    badSetters.push('pod');
    badValues.push(stringField(podProfile, 'type'));
  }
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const profile = objectField(containerSecurityContext(c), 'seccompProfile');
    if (profile !== undefined && !validSeccompType(stringField(profile, 'type'))) {
      badContainers.push(containerName(c));
      badValues.push(stringField(profile, 'type'));
    }
  });
  if (badContainers.length > 0) {
    badSetters.push(
      `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`,
    );
  }
  if (badSetters.length === 0) return allowedResult;
  return forbiddenResult(
    'seccompProfile',
    `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
  );
};

export const seccompProfileBaselineCheck: Check = {
  id: seccompBaselineID,
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: seccompProfileBaseline_1_0 },
    { minimumVersion: 19, checkPod: seccompProfileBaseline_1_19 },
  ],
};
