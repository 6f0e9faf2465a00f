/**
 * Baseline, v1.0+: container AppArmor annotations may only name `runtime/default` or a
 * `localhost/` profile, or be empty (upstream check_appArmorProfile.go).
 */
import { allowedResult, forbiddenResult, pluralize, type Check, type CheckPodFn } from '../check.js';
import { goQuote } from '../../../machinery/field/errors.js';

const annotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';

function allowedProfile(profile: string): boolean {
  return profile === '' || profile === 'runtime/default' || profile.startsWith('localhost/');
}

const appArmorProfile_1_0: CheckPodFn = (meta) => {
  const forbidden: string[] = [];
  for (const [k, v] of Object.entries(meta.annotations)) {
    if (k.startsWith(annotationPrefix) && !allowedProfile(v)) forbidden.push(`${k}=${goQuote(v)}`);
  }
  if (forbidden.length === 0) return allowedResult;
  forbidden.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return forbiddenResult(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', forbidden.length),
    forbidden.join(', '),
  );
};

export const appArmorProfileCheck: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: appArmorProfile_1_0 }],
};
