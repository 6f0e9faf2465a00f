/** The three modes' level and version for one namespace (upstream api.Policy). */
import { equivalentLevelVersion, type LevelVersion } from './level-version.js';

export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

export function equivalentPolicy(a: Policy, b: Policy): boolean {
  return (
    equivalentLevelVersion(a.enforce, b.enforce) &&
    equivalentLevelVersion(a.audit, b.audit) &&
    equivalentLevelVersion(a.warn, b.warn)
  );
}
