/**
 * Check results folded into one verdict (upstream policy.AggregateCheckResults): the reasons of
 * the checks that forbade, with their details, printed `reason (detail), reason` for one object
 * and `reason, reason` for a namespace's pods.
 */
import type { CheckResult } from './check.js';

export interface AggregateCheckResult {
  readonly allowed: boolean;
  readonly forbiddenReasons: readonly string[];
  /** Same length as forbiddenReasons; '' where a check gave no detail. */
  readonly forbiddenDetails: readonly string[];
}

const unknownForbiddenReason = 'unknown forbidden reason';

export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(
      r.forbiddenReason === undefined || r.forbiddenReason === ''
        ? unknownForbiddenReason
        : r.forbiddenReason,
    );
    details.push(r.forbiddenDetail ?? '');
  }
  return { allowed: reasons.length === 0, forbiddenReasons: reasons, forbiddenDetails: details };
}

/** `host ports, privileged` */
export function forbiddenReason(a: AggregateCheckResult): string {
  return a.forbiddenReasons.join(', ');
}

/** `host ports (8080, 9090), privileged (container "a" must not ...)` */
export function forbiddenDetail(a: AggregateCheckResult): string {
  return a.forbiddenReasons
    .map((reason, i) => {
      const detail = a.forbiddenDetails[i] ?? '';
      return detail === '' ? reason : `${reason} (${detail})`;
    })
    .join(', ');
}
