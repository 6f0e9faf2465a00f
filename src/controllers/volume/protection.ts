/**
 * What the storage-object-in-use protection controllers decide (upstream v1.27
 * pkg/controller/volume/protectionutil, pkg/controller/volume/common's PodPVCIndexFunc and the
 * pvcprotection controller's podUsesPVC): the finalizers, which claims a pod refers to, and
 * whether a pod still uses a claim.
 */
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { arr, deleting, meta, name, namespace, obj, str, uid } from '../util/objects.js';
import { nodeName, podPhase } from '../util/pods.js';

export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

export function finalizersOf(o: JsonObject): string[] {
  return arr(meta(o)['finalizers']).filter((f): f is string => typeof f === 'string');
}

/** protectionutil.IsDeletionCandidate: being deleted and still carrying `finalizer`. */
export function isDeletionCandidate(o: JsonObject, finalizer: string): boolean {
  return deleting(o) && finalizersOf(o).includes(finalizer);
}

/** protectionutil.NeedToAddFinalizer: not being deleted and without `finalizer`. */
export function needToAddFinalizer(o: JsonObject, finalizer: string): boolean {
  return !deleting(o) && !finalizersOf(o).includes(finalizer);
}

/** A copy of `o` with `finalizer` appended. */
export function withFinalizer(o: JsonObject, finalizer: string): JsonObject {
  const copy = structuredClone(o);
  copy['metadata'] = { ...meta(copy), finalizers: [...finalizersOf(o), finalizer] };
  return copy;
}

/** A copy of `o` without `finalizer` (slice.RemoveString). */
export function withoutFinalizer(o: JsonObject, finalizer: string): JsonObject {
  const copy = structuredClone(o);
  copy['metadata'] = { ...meta(copy), finalizers: finalizersOf(o).filter((f) => f !== finalizer) };
  return copy;
}

/** ephemeral.VolumeClaimName: the claim of a generic ephemeral volume is `<pod>-<volume>`. */
export function ephemeralClaimName(pod: JsonObject, volumeName: string): string {
  return `${name(pod)}-${volumeName}`;
}

/** The claim names a pod's volumes refer to, with whether each is a generic ephemeral volume. */
export function podClaims(pod: JsonObject): { readonly claim: string; readonly ephemeral: boolean }[] {
  const out: { claim: string; ephemeral: boolean }[] = [];
  for (const v of arr(obj(pod['spec'])['volumes'])) {
    if (!isJsonObject(v)) continue;
    const pvc = v['persistentVolumeClaim'];
    if (isJsonObject(pvc)) {
      const claim = str(pvc['claimName']);
      if (claim !== '') out.push({ claim, ephemeral: false });
    } else if (isJsonObject(v['ephemeral'])) {
      out.push({ claim: ephemeralClaimName(pod, str(v['name'])), ephemeral: true });
    }
  }
  return out;
}

/** The index of pods by the claims they use (common.PodPVCIndex). */
export const podPvcIndex = 'pod-pvc';

/** common.PodPVCIndexFunc: `<namespace>/<claim>` for each claim the pod refers to. */
export function podPvcKeys(pod: JsonObject): string[] {
  return podClaims(pod).map((c) => `${namespace(pod)}/${c.claim}`);
}

/**
 * podIsShutDown: kubelet is done with the pod (deletionTimestamp with a zero grace period) or it
 * was force-deleted.
 */
export function podIsShutDown(pod: JsonObject): boolean {
  return deleting(pod) && meta(pod)['deletionGracePeriodSeconds'] === 0;
}

/** metav1.IsControlledBy: the claim's controller reference points at the pod's uid. */
function isControlledBy(o: JsonObject, owner: JsonObject): boolean {
  return arr(meta(o)['ownerReferences']).some(
    (r) => isJsonObject(r) && r['controller'] === true && r['uid'] === uid(owner),
  );
}

/**
 * podUsesPVC (v1.27): only a pod scheduled to a node uses a claim — kubelet does not start a pod
 * whose claim is being deleted. A `persistentVolumeClaim` volume naming the claim counts whatever
 * the pod's phase; a generic ephemeral volume counts unless the pod is shut down, and only when
 * the claim is the one created for this pod (controlled by it).
 */
export function podUsesPVC(pod: JsonObject, pvc: JsonObject): boolean {
  if (nodeName(pod) === '') return false;
  return podClaims(pod).some((c) => {
    if (c.claim !== name(pvc)) return false;
    if (!c.ephemeral) return true;
    return !podIsShutDown(pod) && isControlledBy(pvc, pod);
  });
}

/** Container statuses are all waiting or terminated (volumeutil's notRunning). */
function notRunning(statuses: readonly unknown[]): boolean {
  return statuses.every((s) => {
    if (!isJsonObject(s)) return true;
    const state = obj(s['state']);
    return isJsonObject(state['terminated']) || isJsonObject(state['waiting']);
  });
}

/**
 * volumeutil.IsPodTerminated: Failed or Succeeded, or being deleted with no container running.
 */
export function isPodTerminated(pod: JsonObject): boolean {
  const phase = podPhase(pod);
  if (phase === 'Failed' || phase === 'Succeeded') return true;
  const status = obj(pod['status']);
  return (
    deleting(pod) &&
    notRunning(arr(status['initContainerStatuses'])) &&
    notRunning(arr(status['containerStatuses'])) &&
    notRunning(arr(status['ephemeralContainerStatuses']))
  );
}
