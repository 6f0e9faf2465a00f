/**
 * Upstream v1.27 pkg/controller/deployment/util (deployment_util.go) over decoded JSON objects:
 * revisions and the annotations a Deployment writes on its ReplicaSets, maxSurge/maxUnavailable
 * resolution (percentages rounded up for surge, down for unavailability), proportional scaling,
 * conditions, and the comparisons that find the new ReplicaSet.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { rfc3339 } from '../util/clock.js';
import { annotations, arr, deleting, meta, name, num, obj, str, timeOf } from '../util/objects.js';

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
export const rollbackToAnnotation = 'deprecated.deployment.rollback.to';
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
export const podTemplateHashLabel = 'pod-template-hash';
/** Upstream maxRevHistoryLengthInChars. */
export const maxRevisionHistoryChars = 2000;

export const reasons = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

const maxInt32 = 2 ** 31 - 1;

/** Go's math.Round: halves away from zero. */
export function goRound(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

// ---- spec accessors (with the API's defaults) ----

export function replicasOf(o: JsonObject): number {
  return num(obj(o['spec'])['replicas'], 1);
}

export function statusOf(o: JsonObject): JsonObject {
  return obj(o['status']);
}

export function isRollingUpdate(d: JsonObject): boolean {
  const t = str(obj(obj(d['spec'])['strategy'])['type']);
  return t === '' || t === 'RollingUpdate';
}

export function isRecreate(d: JsonObject): boolean {
  return str(obj(obj(d['spec'])['strategy'])['type']) === 'Recreate';
}

function rollingParams(d: JsonObject): { maxSurge: JsonValue; maxUnavailable: JsonValue } {
  const ru = obj(obj(obj(d['spec'])['strategy'])['rollingUpdate']);
  return { maxSurge: ru['maxSurge'] ?? '25%', maxUnavailable: ru['maxUnavailable'] ?? '25%' };
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(v: JsonValue | undefined, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (!v.endsWith('%'))
      throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
    const pct = Number.parseInt(v.slice(0, -1), 10);
    if (Number.isNaN(pct)) throw new Error(`invalid value "${v}": invalid syntax`);
    const x = (pct * total) / 100;
    return roundUp ? Math.ceil(x) : Math.floor(x);
  }
  return 0;
}

/** ResolveFenceposts: surge rounds up, unavailable down; both zero means unavailable 1. */
export function resolveFenceposts(
  maxSurge: JsonValue | undefined,
  maxUnavailable: JsonValue | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: JsonObject): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, replicasOf(d)).surge;
}

export function maxUnavailable(d: JsonObject): number {
  const replicas = replicasOf(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const p = rollingParams(d);
  const { unavailable } = resolveFenceposts(p.maxSurge, p.maxUnavailable, replicas);
  return Math.min(unavailable, replicas);
}

export function hasProgressDeadline(d: JsonObject): boolean {
  const v = obj(d['spec'])['progressDeadlineSeconds'];
  return typeof v === 'number' && v !== maxInt32;
}

export function progressDeadlineSeconds(d: JsonObject): number {
  return num(obj(d['spec'])['progressDeadlineSeconds'], 600);
}

export function revisionHistoryLimit(d: JsonObject): number | undefined {
  const v = obj(d['spec'])['revisionHistoryLimit'];
  return typeof v === 'number' ? v : undefined;
}

export function isPaused(d: JsonObject): boolean {
  return obj(d['spec'])['paused'] === true;
}

// ---- replica counts over ReplicaSets ----

export function activeReplicaSets(rss: readonly JsonObject[]): JsonObject[] {
  return rss.filter((rs) => replicasOf(rs) > 0);
}

/** Sum of spec.replicas. */
export function specReplicaCount(rss: readonly JsonObject[]): number {
  return rss.reduce((n, rs) => n + replicasOf(rs), 0);
}

/** Sum of status.replicas. */
export function actualReplicaCount(rss: readonly JsonObject[]): number {
  return rss.reduce((n, rs) => n + num(statusOf(rs)['replicas']), 0);
}

export function readyReplicaCount(rss: readonly JsonObject[]): number {
  return rss.reduce((n, rs) => n + num(statusOf(rs)['readyReplicas']), 0);
}

export function availableReplicaCount(rss: readonly JsonObject[]): number {
  return rss.reduce((n, rs) => n + num(statusOf(rs)['availableReplicas']), 0);
}

// ---- revisions and annotations ----

/**
 * A revision annotation's value. Revisions are int64s (an adopted ReplicaSet may carry any, the
 * conformance specs use 3546343826724305832): bigint keeps them exact past 2^53.
 */
function parseRevision(v: string | undefined): bigint | undefined {
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  return BigInt(v);
}

/** Revision(obj): the revision annotation (0 when absent, undefined when invalid). */
export function revisionOf(o: JsonObject): bigint | undefined {
  const v = annotations(o)[revisionAnnotation];
  return v === undefined ? 0n : parseRevision(v);
}

export function maxRevision(rss: readonly JsonObject[]): bigint {
  let max = 0n;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** LastRevision: the second highest revision. */
export function lastRevision(rss: readonly JsonObject[]): bigint {
  let max = 0n;
  let second = 0n;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) {
      second = v;
    }
  }
  return second;
}

function skipCopyAnnotation(key: string): boolean {
  return (
    key === lastAppliedAnnotation ||
    key === revisionAnnotation ||
    key === revisionHistoryAnnotation ||
    key === desiredReplicasAnnotation ||
    key === maxReplicasAnnotation ||
    key === rollbackToAnnotation
  );
}

function annotationsOf(o: JsonObject): JsonObject {
  const m = meta(o);
  if (!isJsonObject(m['annotations'])) m['annotations'] = {};
  return m['annotations'];
}

/** copyDeploymentAnnotationsToReplicaSet (mutates `rs`). */
function copyDeploymentAnnotations(d: JsonObject, rs: JsonObject): boolean {
  let changed = false;
  const target = annotationsOf(rs);
  for (const [k, v] of Object.entries(annotations(d))) {
    if (skipCopyAnnotation(k) || target[k] === v) continue;
    target[k] = v;
    changed = true;
  }
  return changed;
}

/** SetReplicasAnnotations (mutates `rs`). */
export function setReplicasAnnotations(rs: JsonObject, desired: number, max: number): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  if (a[desiredReplicasAnnotation] !== String(desired)) {
    a[desiredReplicasAnnotation] = String(desired);
    changed = true;
  }
  if (a[maxReplicasAnnotation] !== String(max)) {
    a[maxReplicasAnnotation] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: JsonObject, desired: number, max: number): boolean {
  const a = annotations(rs);
  return a[desiredReplicasAnnotation] !== String(desired) || a[maxReplicasAnnotation] !== String(max);
}

function intAnnotation(rs: JsonObject, key: string): number | undefined {
  const v = annotations(rs)[key];
  const n = parseRevision(v);
  return n !== undefined && n >= -(2n ** 31n) && n <= BigInt(maxInt32) ? Number(n) : undefined;
}

export function desiredReplicasOf(rs: JsonObject): number | undefined {
  return intAnnotation(rs, desiredReplicasAnnotation);
}

/** SetNewReplicaSetAnnotations (mutates `rs`); returns whether anything changed. */
export function setNewReplicaSetAnnotations(
  d: JsonObject,
  rs: JsonObject,
  newRevision: string,
  exists: boolean,
  limitChars = maxRevisionHistoryChars,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const a = annotationsOf(rs);
  const had = typeof a[revisionAnnotation] === 'string';
  const oldRevision = had ? (a[revisionAnnotation] as string) : '';
  let oldInt = 0n;
  if (oldRevision !== '') {
    const p = parseRevision(oldRevision);
    if (p === undefined) return false;
    oldInt = p;
  }
  const newInt = parseRevision(newRevision);
  if (newInt === undefined) return false;
  if (oldInt < newInt) {
    a[revisionAnnotation] = newRevision;
    changed = true;
  }
  if (had && oldInt < newInt) {
    const history = str(a[revisionHistoryAnnotation]);
    const old = history.split(',');
    if (old[0] === '') {
      a[revisionHistoryAnnotation] = oldRevision;
    } else {
      let total = history.length + oldRevision.length + 1;
      let start = 0;
      while (total > limitChars && start < old.length) {
        total = total - old[start]!.length - 1;
        start++;
      }
      if (total <= limitChars) a[revisionHistoryAnnotation] = [...old.slice(start), oldRevision].join(',');
    }
  }
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

/** SetDeploymentRevision (mutates `d`). */
export function setDeploymentRevision(d: JsonObject, revision: string): boolean {
  const a = annotationsOf(d);
  if (a[revisionAnnotation] === revision) return false;
  a[revisionAnnotation] = revision;
  return true;
}

/** SetDeploymentAnnotationsTo: the Deployment takes the rollback target's annotations (mutates `d`). */
export function setDeploymentAnnotationsTo(d: JsonObject, rollbackTo: JsonObject): void {
  const kept: JsonObject = {};
  for (const [k, v] of Object.entries(annotations(d))) if (skipCopyAnnotation(k)) kept[k] = v;
  for (const [k, v] of Object.entries(annotations(rollbackTo))) if (!skipCopyAnnotation(k)) kept[k] = v;
  meta(d)['annotations'] = kept;
}

// ---- finding the new and old ReplicaSets ----

/** Semantic equality as apiequality.Semantic.DeepEqual: empty lists and maps equal absent ones. */
function normalized(v: JsonValue | undefined): JsonValue | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => normalized(x) ?? null);
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalized(x);
      if (n !== undefined) out[k] = n;
    }
    return out;
  }
  return v;
}

function withoutHash(template: JsonValue | undefined): JsonValue | undefined {
  const t = cloneJson(obj(template));
  const m = obj(t['metadata']);
  if (isJsonObject(m['labels'])) {
    const l = { ...m['labels'] };
    delete l[podTemplateHashLabel];
    m['labels'] = l;
    t['metadata'] = m;
  }
  // Emptied metadata counts as absent (ObjectMeta is not a pointer in Go).
  const n = normalized(t);
  if (isJsonObject(n) && isJsonObject(n['metadata']) && Object.keys(n['metadata']).length === 0)
    delete n['metadata'];
  if (isJsonObject(n) && isJsonObject(n['spec']) && Object.keys(n['spec']).length === 0) delete n['spec'];
  return n;
}

/** EqualIgnoreHash: templates equal except for the pod-template-hash label. */
export function equalIgnoreHash(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return jsonEqual(withoutHash(a), withoutHash(b));
}

export function templateOf(o: JsonObject): JsonObject {
  return obj(obj(o['spec'])['template']);
}

function created(o: JsonObject): number {
  return timeOf(meta(o)['creationTimestamp']) ?? 0;
}

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreation(a: JsonObject, b: JsonObject): number {
  const d = created(a) - created(b);
  if (d !== 0) return d;
  return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
}

/** ReplicaSetsBySizeOlder: larger first; equal sizes older first. */
export function bySizeOlder(a: JsonObject, b: JsonObject): number {
  const d = replicasOf(b) - replicasOf(a);
  return d !== 0 ? d : byCreation(a, b);
}

/** ReplicaSetsBySizeNewer: larger first; equal sizes newer first. */
export function bySizeNewer(a: JsonObject, b: JsonObject): number {
  const d = replicasOf(b) - replicasOf(a);
  return d !== 0 ? d : byCreation(b, a);
}

/** ReplicaSetsByRevision: lower revision first, then older. */
export function byRevision(a: JsonObject, b: JsonObject): number {
  const ra = revisionOf(a) ?? 0n;
  const rb = revisionOf(b) ?? 0n;
  return ra !== rb ? (ra < rb ? -1 : 1) : byCreation(a, b);
}

export function findNewReplicaSet(d: JsonObject, rss: readonly JsonObject[]): JsonObject | undefined {
  const sorted = [...rss].sort(byCreation);
  return sorted.find((rs) => equalIgnoreHash(templateOf(rs), templateOf(d)));
}

export function findOldReplicaSets(d: JsonObject, rss: readonly JsonObject[]): JsonObject[] {
  const newRS = findNewReplicaSet(d, rss);
  return rss.filter((rs) => newRS === undefined || str(meta(rs)['uid']) !== str(meta(newRS)['uid']));
}

/** FindActiveOrLatest. */
export function findActiveOrLatest(
  newRS: JsonObject | undefined,
  oldRSs: readonly JsonObject[],
): JsonObject | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  const sorted = [...oldRSs].sort((a, b) => byCreation(b, a));
  const all = activeReplicaSets(newRS !== undefined ? [...sorted, newRS] : sorted);
  if (all.length === 0) return newRS ?? sorted[0];
  if (all.length === 1) return all[0];
  return undefined;
}

/** IsSaturated: the new ReplicaSet runs exactly the Deployment's replicas, all available. */
export function isSaturated(d: JsonObject, rs: JsonObject | undefined): boolean {
  if (rs === undefined) return false;
  const desired = desiredReplicasOf(rs);
  const replicas = replicasOf(d);
  return (
    desired === replicas && num(statusOf(rs)['availableReplicas']) === replicas && replicasOf(rs) === replicas
  );
}

/** NewRSNewReplicas. */
export function newRSNewReplicas(d: JsonObject, all: readonly JsonObject[], newRS: JsonObject): number {
  const replicas = replicasOf(d);
  if (isRecreate(d)) return replicas;
  const surge = scaledValue(rollingParams(d).maxSurge, replicas, true);
  const current = specReplicaCount(all);
  const maxTotal = replicas + surge;
  if (current >= maxTotal) return replicasOf(newRS);
  const up = Math.min(maxTotal - current, replicas - replicasOf(newRS));
  return replicasOf(newRS) + up;
}

/** getReplicaSetFraction. */
function replicaSetFraction(rs: JsonObject, d: JsonObject): number {
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  const annotated = intAnnotation(rs, maxReplicasAnnotation) ?? num(statusOf(d)['replicas']);
  const size = (replicasOf(rs) * deploymentReplicas) / annotated;
  return goRound(size) - replicasOf(rs);
}

/** GetProportion: how many replicas `rs` gets of what the Deployment adds (or removes). */
export function proportion(rs: JsonObject, d: JsonObject, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

// ---- conditions ----

export function condition(status: JsonObject, type: string): JsonObject | undefined {
  return arr(status['conditions']).find((c): c is JsonObject => isJsonObject(c) && c['type'] === type);
}

export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): JsonObject {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** SetDeploymentCondition (mutates `status`). */
export function setCondition(status: JsonObject, c: JsonObject): void {
  const current = condition(status, str(c['type']));
  if (current !== undefined && current['status'] === c['status'] && current['reason'] === c['reason']) return;
  const next = { ...c };
  if (current !== undefined && current['status'] === c['status']) {
    next['lastTransitionTime'] = current['lastTransitionTime'] ?? null;
  }
  status['conditions'] = [
    ...arr(status['conditions']).filter((x) => !(isJsonObject(x) && x['type'] === c['type'])),
    next,
  ];
}

export function removeCondition(status: JsonObject, type: string): void {
  const left = arr(status['conditions']).filter((x) => !(isJsonObject(x) && x['type'] === type));
  if (left.length > 0) status['conditions'] = left;
  else delete status['conditions'];
}

/** DeploymentComplete. */
export function deploymentComplete(d: JsonObject, s: JsonObject): boolean {
  const replicas = replicasOf(d);
  return (
    num(s['updatedReplicas']) === replicas &&
    num(s['replicas']) === replicas &&
    num(s['availableReplicas']) === replicas &&
    num(s['observedGeneration']) >= num(meta(d)['generation'])
  );
}

/** DeploymentProgressing: any sign of progress between the stored and the new status. */
export function deploymentProgressing(d: JsonObject, s: JsonObject): boolean {
  const old = statusOf(d);
  const oldOld = num(old['replicas']) - num(old['updatedReplicas']);
  const newOld = num(s['replicas']) - num(s['updatedReplicas']);
  return (
    num(s['updatedReplicas']) > num(old['updatedReplicas']) ||
    newOld < oldOld ||
    num(s['readyReplicas']) > num(old['readyReplicas']) ||
    num(s['availableReplicas']) > num(old['availableReplicas'])
  );
}

/** DeploymentTimedOut. */
export function deploymentTimedOut(d: JsonObject, s: JsonObject, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = condition(s, 'Progressing');
  if (c === undefined) return false;
  if (c['reason'] === reasons.newRSAvailable) return false;
  if (c['reason'] === reasons.timedOut) return true;
  const from = timeOf(c['lastUpdateTime']) ?? 0;
  return from + progressDeadlineSeconds(d) * 1000 < now;
}

/** Whether a ReplicaSet may be deleted by history cleanup (cleanupDeployment's checks). */
export function cleanable(rs: JsonObject): boolean {
  return (
    num(statusOf(rs)['replicas']) === 0 &&
    replicasOf(rs) === 0 &&
    num(meta(rs)['generation']) <= num(statusOf(rs)['observedGeneration']) &&
    !deleting(rs)
  );
}
