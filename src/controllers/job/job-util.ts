/**
 * Pure pieces of the v1.27 Job controller (pkg/controller/job): completed-index intervals
 * (`status.completedIndexes`), completion indexes of pods, pod failure policy matching, job
 * conditions, and the pod backoff record (10 s doubling to 6 min after failures since the last
 * success).
 */
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { annotations, arr, meta, name, namespace, num, obj, str, timeOf } from '../util/objects.js';
import { podPhase } from '../util/pods.js';
import { rfc3339 } from '../util/clock.js';

export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';
export const completionIndexAnnotation = 'batch.kubernetes.io/job-completion-index';
export const completionIndexEnv = 'JOB_COMPLETION_INDEX';
/** names.MaxGeneratedNameLength. */
const maxGeneratedNameLength = 58;

export function isIndexedJob(job: JsonObject): boolean {
  return obj(job['spec'])['completionMode'] === 'Indexed';
}

/** The pod's completion index; undefined when absent or invalid (unknownCompletionIndex). */
export function completionIndex(pod: JsonObject): number | undefined {
  const v = annotations(pod)[completionIndexAnnotation];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 0 && Number.isSafeInteger(n) ? n : undefined;
}

/** podGenerateNameWithIndex: `<job>-<index>-`, the job name cut so the prefix stays within 58. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  if (prefix.length <= maxGeneratedNameLength) return prefix;
  return jobName.slice(0, maxGeneratedNameLength - suffix.length) + suffix;
}

/** Parses `status.completedIndexes` ("1,3-5"), keeping indexes below `completions`. */
export function parseIndexes(s: string, completions: number): Set<number> {
  const out = new Set<number>();
  if (s === '') return out;
  for (const part of s.split(',')) {
    const [a, b] = part.split('-');
    const first = Number(a);
    const last = b === undefined ? first : Number(b);
    if (!Number.isInteger(first) || !Number.isInteger(last)) continue;
    for (let i = Math.max(0, first); i <= last && i < completions; i++) out.add(i);
  }
  return out;
}

/** Formats indexes as ordered intervals ("1,3-5"). */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** firstPendingIndexes: the lowest `count` indexes neither succeeded nor held by an active pod. */
export function firstPendingIndexes(
  active: readonly JsonObject[],
  succeeded: ReadonlySet<number>,
  count: number,
  completions: number,
): number[] {
  const taken = new Set(succeeded);
  for (const p of active) {
    const ix = completionIndex(p);
    if (ix !== undefined) taken.add(ix);
  }
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
  return out;
}

/** What matchPodFailurePolicy answers for a failed pod. */
export interface PolicyMatch {
  /** Set when a FailJob rule matched: the Job's failure message. */
  readonly failJobMessage?: string;
  /** Whether the failure counts towards backoffLimit. */
  readonly countFailed: boolean;
  readonly action?: string;
}

function matchingContainer(statuses: readonly JsonObject[], req: JsonObject): JsonObject | undefined {
  const containerName = req['containerName'];
  const operator = str(req['operator']);
  const values = arr(req['values']).filter((v): v is number => typeof v === 'number');
  for (const cs of statuses) {
    const terminated = obj(obj(cs['state'])['terminated']);
    if (!isJsonObject(obj(cs['state'])['terminated'])) continue;
    if (typeof containerName === 'string' && containerName !== cs['name']) continue;
    const code = num(terminated['exitCode']);
    if (code === 0) continue;
    const inValues = values.includes(code);
    if ((operator === 'In' && inValues) || (operator === 'NotIn' && !inValues)) return cs;
  }
  return undefined;
}

/** matchPodFailurePolicy of v1.27 (rules in order; the first match decides). */
export function matchPodFailurePolicy(policy: JsonObject | undefined, pod: JsonObject): PolicyMatch {
  if (policy === undefined) return { countFailed: true };
  const status = obj(pod['status']);
  const containers = arr(status['containerStatuses']).filter(isJsonObject);
  const inits = arr(status['initContainerStatuses']).filter(isJsonObject);
  const rules = arr(policy['rules']).filter(isJsonObject);
  for (const [index, rule] of rules.entries()) {
    const action = str(rule['action']);
    const decide = (failJobMessage: () => string): PolicyMatch | undefined => {
      switch (action) {
        case 'Ignore':
          return { countFailed: false, action };
        case 'Count':
          return { countFailed: true, action };
        case 'FailJob':
          return { failJobMessage: failJobMessage(), countFailed: true, action };
        default:
          return undefined;
      }
    };
    if (isJsonObject(rule['onExitCodes'])) {
      const req = rule['onExitCodes'];
      const cs = matchingContainer(containers, req) ?? matchingContainer(inits, req);
      if (cs === undefined) continue;
      const code = num(obj(obj(cs['state'])['terminated'])['exitCode']);
      const d = decide(
        () =>
          `Container ${str(cs['name'])} for pod ${namespace(pod)}/${name(pod)} failed with exit code ${code} matching ${action} rule at index ${index}`,
      );
      if (d !== undefined) return d;
    } else if (Array.isArray(rule['onPodConditions'])) {
      const conditions = arr(status['conditions']).filter(isJsonObject);
      // matchOnPodConditions: the first of the pod's conditions that any pattern matches.
      const patterns = arr(rule['onPodConditions']).filter(isJsonObject);
      const matched = conditions.find((c) =>
        patterns.some((req) => c['type'] === req['type'] && c['status'] === req['status']),
      );
      if (matched === undefined) continue;
      const type = str(matched['type']);
      const d = decide(
        () =>
          `Pod ${namespace(pod)}/${name(pod)} has condition ${type} matching ${action} rule at index ${index}`,
      );
      if (d !== undefined) return d;
    }
  }
  return { countFailed: true };
}

export function podFailurePolicy(job: JsonObject): JsonObject | undefined {
  const p = obj(job['spec'])['podFailurePolicy'];
  return isJsonObject(p) ? p : undefined;
}

export function hasTrackingFinalizer(pod: JsonObject): boolean {
  return arr(meta(pod)['finalizers']).includes(jobTrackingFinalizer);
}

/**
 * isPodFailed: Failed; without a pod failure policy (PodDisruptionConditions on) a pod being
 * deleted that has not succeeded also counts, so orphaned pods are counted as failures.
 */
export function isPodFailed(pod: JsonObject, job: JsonObject): boolean {
  const phase = podPhase(pod);
  if (podFailurePolicy(job) !== undefined) return phase === 'Failed';
  if (phase === 'Failed') return true;
  const deleting = meta(pod)['deletionTimestamp'];
  return deleting !== undefined && deleting !== null && phase !== 'Succeeded';
}

export function findCondition(job: JsonObject, type: string): JsonObject | undefined {
  return arr(obj(job['status'])['conditions'])
    .filter(isJsonObject)
    .find((c) => c['type'] === type);
}

/** IsJobFinished: a Complete or Failed condition that is True. */
export function isJobFinished(job: JsonObject): boolean {
  return arr(obj(job['status'])['conditions']).some(
    (c) => isJsonObject(c) && (c['type'] === 'Complete' || c['type'] === 'Failed') && c['status'] === 'True',
  );
}

/** newCondition (reason and message omitted when empty, as omitempty does). */
export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): JsonObject {
  const t = rfc3339(now);
  const c: JsonObject = { type, status, lastProbeTime: t, lastTransitionTime: t };
  if (reason !== '') c['reason'] = reason;
  if (message !== '') c['message'] = message;
  return c;
}

/**
 * ensureJobConditionStatus: replaces a condition of `type` whose status, reason or message differ;
 * adds one only when the status is not False. Returns whether anything changed.
 */
export function ensureCondition(
  conditions: JsonObject[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): boolean {
  const i = conditions.findIndex((c) => c['type'] === type);
  if (i >= 0) {
    const c = conditions[i]!;
    if (c['status'] !== status || str(c['reason']) !== reason || str(c['message']) !== message) {
      conditions[i] = newCondition(type, status, reason, message, now);
      return true;
    }
    return false;
  }
  if (status !== 'False') {
    conditions.push(newCondition(type, status, reason, message, now));
    return true;
  }
  return false;
}

/** getFinishedTime: the last container finish, else the deletion time, else `now`. */
export function podFinishedTime(pod: JsonObject, now: number): number {
  let latest: number | undefined;
  for (const cs of arr(obj(pod['status'])['containerStatuses'])) {
    const t = timeOf(obj(obj(obj(cs)['state'])['terminated'])['finishedAt']);
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  return latest ?? timeOf(meta(pod)['deletionTimestamp']) ?? now;
}

/** The backoff record of one Job (upstream backoffRecord). */
export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  readonly lastFailureTime: number | undefined;
}

export const noBackoff: BackoffRecord = { failuresAfterLastSuccess: 0, lastFailureTime: undefined };

/** newBackoffRecord: the record after counting newly succeeded and failed pods. */
export function nextBackoffRecord(
  old: BackoffRecord,
  newSucceeded: readonly JsonObject[],
  newFailed: readonly JsonObject[],
  now: number,
): BackoffRecord {
  const failedTimes = newFailed.map((p) => podFinishedTime(p, now)).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return old;
    return {
      failuresAfterLastSuccess: old.failuresAfterLastSuccess + failedTimes.length,
      lastFailureTime: failedTimes[failedTimes.length - 1],
    };
  }
  const lastSuccess = Math.max(...newSucceeded.map((p) => podFinishedTime(p, now)));
  const after = failedTimes.filter((t) => t > lastSuccess);
  return { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1] };
}

/** getRemainingTime: how long pod creation still waits (0 when it need not). */
export function backoffRemaining(r: BackoffRecord, now: number, baseMs: number, maxMs: number): number {
  if (r.failuresAfterLastSuccess === 0 || r.lastFailureTime === undefined) return 0;
  let backoff = baseMs;
  for (let i = 1; i < r.failuresAfterLastSuccess; i++) {
    backoff *= 2;
    if (backoff >= maxMs) {
      backoff = maxMs;
      break;
    }
  }
  const elapsed = now - r.lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}
