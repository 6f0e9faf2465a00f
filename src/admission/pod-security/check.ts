/**
 * One Pod Security check (upstream policy.Check): its ID, the level it belongs to and its
 * revisions by policy version, each a function of the pod's metadata and spec. A restricted
 * revision may override (replace) baseline checks.
 */
import type { JsonObject } from '../../util/json.js';
import type { PodMetadata } from './pod-fields.js';

export interface CheckResult {
  readonly allowed: boolean;
  /** Set when not allowed: short, always shown (`host ports`). */
  readonly forbiddenReason?: string;
  /** Optional detail, shown for single objects (`containers "a", "b" must ...`). */
  readonly forbiddenDetail?: string;
}

export type CheckPodFn = (meta: PodMetadata, spec: JsonObject) => CheckResult;

export interface VersionedCheck {
  /** The first policy version (v1.<minor>) this revision applies to. */
  readonly minimumVersion: number;
  readonly checkPod: CheckPodFn;
  /** Baseline check IDs this (restricted) revision replaces. */
  readonly overrideCheckIDs?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  /** Strictly increasing minimum versions. */
  readonly versions: readonly VersionedCheck[];
}

export const allowedResult: CheckResult = Object.freeze({ allowed: true });

export function forbiddenResult(reason: string, detail: string): CheckResult {
  return { allowed: false, forbiddenReason: reason, forbiddenDetail: detail };
}

/** `"a", "b"` (upstream joinQuote). */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** The distinct items in byte order (upstream sets.String.List()). */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
