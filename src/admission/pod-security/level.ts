/**
 * Pod Security levels (upstream k8s.io/pod-security-admission/api Level): privileged allows
 * everything, baseline forbids known privilege escalations, restricted follows hardening practice.
 */
export type Level = 'privileged' | 'baseline' | 'restricted';

const validLevels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

export const levelParseError = `must be one of ${validLevels.join(', ')}`;

export function isLevel(s: string): s is Level {
  return s === 'privileged' || s === 'baseline' || s === 'restricted';
}

/** upstream ParseLevel: an unknown level is an error and reads as restricted (fail closed). */
export function parseLevel(s: string): { readonly level: Level; readonly error?: string } {
  return isLevel(s) ? { level: s } : { level: 'restricted', error: levelParseError };
}

/** upstream CompareLevels: -1, 0 or 1 as `a` is less, as or more strict than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return rank(a) - rank(b);
}

function rank(l: Level): number {
  return l === 'privileged' ? -1 : l === 'baseline' ? 0 : 1;
}
