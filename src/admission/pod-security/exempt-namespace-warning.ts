/**
 * upstream exemptNamespaceWarning: setting a non-privileged policy on an exempt namespace warns
 * that it will be ignored, naming each non-privileged mode whose level or version label is set;
 * nothing when the policy is fully privileged or equivalent to the defaults.
 */
import {
  auditLevelLabel,
  auditVersionLabel,
  enforceLevelLabel,
  enforceVersionLabel,
  warnLevelLabel,
  warnVersionLabel,
} from './labels.js';
import { levelVersionString, type LevelVersion } from './level-version.js';
import { equivalentPolicy, fullyPrivileged, type Policy } from './policy.js';

export function exemptNamespaceWarning(
  namespace: string,
  policy: Policy,
  defaults: Policy,
  labels: Readonly<Record<string, string>> | undefined,
): string | undefined {
  if (fullyPrivileged(policy) || equivalentPolicy(policy, defaults)) return undefined;
  const has = (label: string): boolean => labels !== undefined && Object.hasOwn(labels, label);
  const parts: string[] = [];
  const mode = (name: string, lv: LevelVersion, levelLabel: string, versionLabel: string): void => {
    if (lv.level !== 'privileged' && (has(levelLabel) || has(versionLabel))) {
      parts.push(`${name}=${levelVersionString(lv)}`);
    }
  };
  mode('enforce', policy.enforce, enforceLevelLabel, enforceVersionLabel);
  mode('audit', policy.audit, auditLevelLabel, auditVersionLabel);
  mode('warn', policy.warn, warnLevelLabel, warnVersionLabel);
  return `namespace "${namespace}" is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}
