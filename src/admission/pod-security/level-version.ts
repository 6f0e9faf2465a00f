/** A level at a policy version (upstream api.LevelVersion), printed `restricted:latest`. */
import type { Level } from './level.js';
import { versionString, type PolicyVersion } from './version.js';

export interface LevelVersion {
  readonly level: Level;
  readonly version: PolicyVersion;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version === b.version;
}

/** upstream LevelVersion.Equivalent: equal, or both privileged (whose version does not matter). */
export function equivalentLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);
}
