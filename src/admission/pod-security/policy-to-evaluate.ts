/**
 * upstream api.PolicyToEvaluate: a namespace's policy from its labels over the configured
 * defaults. A bad label is an error and falls back as upstream does: an unknown enforce level
 * enforces restricted (fail closed), unknown audit and warn levels are privileged (fail open), an
 * unknown version is latest. When only the enforce level is set and it is stricter than the warn
 * level, warn follows enforce (level, and version unless warn-version is set).
 */
import { FieldPath, fieldErrors, type FieldError } from '../../machinery/field/errors.js';
import { compareLevels, parseLevel } from './level.js';
import type { LevelVersion } from './level-version.js';
import {
  auditLevelLabel,
  auditVersionLabel,
  enforceLevelLabel,
  enforceVersionLabel,
  warnLevelLabel,
  warnVersionLabel,
} from './labels.js';
import type { Policy } from './policy.js';
import { parseVersion } from './version.js';

export interface EvaluatedPolicy {
  readonly policy: Policy;
  /** The bad labels, in upstream's order (enforce, audit, warn; level before version). */
  readonly errors: readonly FieldError[];
}

const labelsPath = FieldPath.root('metadata', 'labels');
const noErrors: readonly FieldError[] = Object.freeze([]);

export function policyToEvaluate(
  labels: Readonly<Record<string, string>> | undefined,
  defaults: Policy,
): EvaluatedPolicy {
  if (labels === undefined || isEmpty(labels)) return { policy: defaults, errors: noErrors };

  const errors: FieldError[] = [];
  const bad = (label: string, value: string, error: string | undefined): boolean => {
    if (error === undefined) return false;
    errors.push(fieldErrors.invalid(labelsPath.key(label), value, error));
    return true;
  };
  let enforce: LevelVersion = defaults.enforce;
  let audit: LevelVersion = defaults.audit;
  let warn: LevelVersion = defaults.warn;
  let hasEnforceLevel = false;

  const enforceLevel = labels[enforceLevelLabel];
  if (enforceLevel !== undefined) {
    const r = parseLevel(enforceLevel);
    enforce = { ...enforce, level: r.level };
    hasEnforceLevel = !bad(enforceLevelLabel, enforceLevel, r.error); // no warn defaulting on error
  }
  const enforceVersion = labels[enforceVersionLabel];
  if (enforceVersion !== undefined) {
    const r = parseVersion(enforceVersion);
    enforce = { ...enforce, version: r.version };
    bad(enforceVersionLabel, enforceVersion, r.error);
  }
  const auditLevel = labels[auditLevelLabel];
  if (auditLevel !== undefined) {
    const r = parseLevel(auditLevel);
    audit = { ...audit, level: bad(auditLevelLabel, auditLevel, r.error) ? 'privileged' : r.level };
  }
  const auditVersion = labels[auditVersionLabel];
  if (auditVersion !== undefined) {
    const r = parseVersion(auditVersion);
    audit = { ...audit, version: r.version };
    bad(auditVersionLabel, auditVersion, r.error);
  }
  const warnLevel = labels[warnLevelLabel];
  if (warnLevel !== undefined) {
    const r = parseLevel(warnLevel);
    warn = { ...warn, level: bad(warnLevelLabel, warnLevel, r.error) ? 'privileged' : r.level };
  }
  const warnVersion = labels[warnVersionLabel];
  if (warnVersion !== undefined) {
    const r = parseVersion(warnVersion);
    warn = { ...warn, version: r.version };
    bad(warnVersionLabel, warnVersion, r.error);
  }

  if (warnLevel === undefined && hasEnforceLevel && compareLevels(enforce.level, warn.level) > 0) {
    warn = { level: enforce.level, version: warnVersion === undefined ? enforce.version : warn.version };
  }
  return { policy: { enforce, audit, warn }, errors };
}

/** Two error lists alike (upstream compares them with reflect.DeepEqual). */
export function sameFieldErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((e, i) => {
    const other = b[i];
    return other !== undefined && e.type === other.type && e.toString() === other.toString();
  });
}

function isEmpty(o: Readonly<Record<string, string>>): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
}

/** upstream field.ErrorList.ToAggregate().Error(): one message, or `[a, b]` without repeats. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
