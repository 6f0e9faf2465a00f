/**
 * Pod helpers of upstream v1.27 (pkg/api/v1/pod and pkg/controller/controller_utils.go): active,
 * ready and available pods, and ActivePodsWithRanks, the order in which a ReplicaSet gives up its
 * excess pods (the first ones go first).
 */
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { annotations, arr, deleting, meta, obj, str, timeOf, uid } from './objects.js';

export function podPhase(pod: JsonObject): string {
  return str(obj(pod['status'])['phase']);
}

export function nodeName(pod: JsonObject): string {
  return str(obj(pod['spec'])['nodeName']);
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: JsonObject): boolean {
  const phase = podPhase(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !deleting(pod);
}

function readyCondition(pod: JsonObject): JsonObject | undefined {
  for (const c of arr(obj(pod['status'])['conditions']))
    if (isJsonObject(c) && c['type'] === 'Ready') return c;
  return undefined;
}

/** podutil.IsPodReady. */
export function isPodReady(pod: JsonObject): boolean {
  return readyCondition(pod)?.['status'] === 'True';
}

/** When the pod last became ready (undefined when not ready or unknown). */
export function podReadyTime(pod: JsonObject): number | undefined {
  const c = readyCondition(pod);
  return c?.['status'] === 'True' ? timeOf(c['lastTransitionTime']) : undefined;
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds (strictly before now). */
export function isPodAvailable(pod: JsonObject, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const t = timeOf(readyCondition(pod)?.['lastTransitionTime']);
  return t !== undefined && t + minReadySeconds * 1000 < now;
}

const phaseOrdinal: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

function maxContainerRestarts(pod: JsonObject): number {
  let max = 0;
  for (const s of arr(obj(pod['status'])['containerStatuses'])) {
    if (isJsonObject(s) && typeof s['restartCount'] === 'number') max = Math.max(max, s['restartCount']);
  }
  return max;
}

/** helper.GetDeletionCostFromPodAnnotations (invalid values count as 0). */
function deletionCost(pod: JsonObject): number {
  const v = annotations(pod)['controller.kubernetes.io/pod-deletion-cost'];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : 0;
}

/** afterOrZero: a zero time counts as newest. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/** logarithmicRankDiff: compare floor(log2(age in ns)). */
function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const d1 = (now - t1) * 1e6;
  const d2 = (now - t2) * 1e6;
  const r1 = d1 > 0 ? Math.trunc(Math.log2(d1)) : -1;
  const r2 = d2 > 0 ? Math.trunc(Math.log2(d2)) : -1;
  return r1 - r2;
}

function compareTimes(
  a: JsonObject,
  b: JsonObject,
  ta: number | undefined,
  tb: number | undefined,
  now: number,
): number {
  // LogarithmicScaleDown (beta, on in v1.27).
  if (ta === undefined || tb === undefined) return afterOrZero(ta, tb) ? -1 : 1;
  const diff = logarithmicRankDiff(ta, tb, now);
  if (diff === 0) {
    const ua = uid(a);
    const ub = uid(b);
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  }
  return diff < 0 ? -1 : 1;
}

/**
 * ActivePodsWithRanks.Less as a comparator: unassigned < assigned; Pending < Unknown < Running;
 * not ready < ready; lower pod-deletion-cost first; more co-located related pods (rank) first;
 * more recently ready first; more restarts first; newer first (creation and ready times compared
 * on a logarithmic scale, as LogarithmicScaleDown).
 */
export function comparePodsForDeletion(
  a: JsonObject,
  b: JsonObject,
  rankA: number,
  rankB: number,
  now: number,
): number {
  const na = nodeName(a);
  const nb = nodeName(b);
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const pa = phaseOrdinal[podPhase(a)] ?? 0;
  const pb = phaseOrdinal[podPhase(b)] ?? 0;
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  const ca = deletionCost(a);
  const cb = deletionCost(b);
  if (ca !== cb) return ca - cb;
  if (rankA !== rankB) return rankB - rankA;
  if (ra && rb) {
    const ta = podReadyTime(a);
    const tb = podReadyTime(b);
    if (ta !== tb) {
      const c = compareTimes(a, b, ta, tb, now);
      if (c !== 0) return c;
    }
  }
  const xa = maxContainerRestarts(a);
  const xb = maxContainerRestarts(b);
  if (xa !== xb) return xb - xa;
  const ta = timeOf(meta(a)['creationTimestamp']);
  const tb = timeOf(meta(b)['creationTimestamp']);
  if (ta !== tb) return compareTimes(a, b, ta, tb, now);
  return 0;
}

/**
 * Upstream getPodsToDelete: the `diff` pods to delete, ranked by how many active related pods
 * share their node.
 */
export function podsToDelete(
  filtered: readonly JsonObject[],
  related: readonly JsonObject[],
  diff: number,
  now: number,
): JsonObject[] {
  if (diff >= filtered.length) return filtered.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(nodeName(p), (onNode.get(nodeName(p)) ?? 0) + 1);
  const ranked = filtered.map((pod) => ({ pod, rank: onNode.get(nodeName(pod)) ?? 0 }));
  ranked.sort((x, y) => comparePodsForDeletion(x.pod, y.pod, x.rank, y.rank, now));
  return ranked.slice(0, diff).map((r) => r.pod);
}
