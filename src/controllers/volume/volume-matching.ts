/**
 * Matching claims to volumes as the v1.27 PV controller does (component-helpers
 * storage/volume/pv_helpers.go FindMatchingVolume and pkg/controller/volume/persistentvolume
 * index.go findByClaim): volumes are grouped by their set of access modes; the groups whose modes
 * contain every mode the claim asks for are searched fewest modes first, and in the first group
 * with a match the volume pre-bound to the claim wins, otherwise the smallest Available, unclaimed
 * volume of the claim's class whose labels match the claim's selector and whose capacity covers
 * the request.
 */
import { asSelector } from '../../machinery/labels/metav1.js';
import { compareQuantity, parseQuantity, parseQuantityJSON } from '../../machinery/quantity/quantity.js';
import type { Quantity } from '../../machinery/quantity/quantity.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { annotations, arr, deleting, meta, name, namespace, obj, str, uid } from '../util/objects.js';

export const annBindCompleted = 'pv.kubernetes.io/bind-completed';
export const annBoundByController = 'pv.kubernetes.io/bound-by-controller';
export const annDynamicallyProvisioned = 'pv.kubernetes.io/provisioned-by';
export const annStorageProvisioner = 'volume.kubernetes.io/storage-provisioner';
export const annBetaStorageProvisioner = 'volume.beta.kubernetes.io/storage-provisioner';
export const annSelectedNode = 'volume.kubernetes.io/selected-node';
const annBetaStorageClass = 'volume.beta.kubernetes.io/storage-class';

const zero = parseQuantity('0');

/** The storage capacity in a ResourceList (a missing or bad one reads as zero, as Go's zero Quantity). */
export function storageOf(list: JsonValue | undefined): Quantity {
  try {
    return parseQuantityJSON(obj(list)['storage']) ?? zero;
  } catch {
    return zero;
  }
}

export function claimRequest(pvc: JsonObject): Quantity {
  return storageOf(obj(obj(pvc['spec'])['resources'])['requests']);
}

export function volumeCapacity(pv: JsonObject): Quantity {
  return storageOf(obj(pv['spec'])['capacity']);
}

/** GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName, else "". */
export function claimClass(pvc: JsonObject): string {
  const ann = annotations(pvc)[annBetaStorageClass];
  if (ann !== undefined) return ann;
  return str(obj(pvc['spec'])['storageClassName']);
}

/** PersistentVolumeClaimHasClass: a class was asked for, even "" (no class). */
export function claimHasClass(pvc: JsonObject): boolean {
  if (annotations(pvc)[annBetaStorageClass] !== undefined) return true;
  return typeof obj(pvc['spec'])['storageClassName'] === 'string';
}

/** GetPersistentVolumeClass: the beta annotation, else spec.storageClassName, else "". */
export function volumeClass(pv: JsonObject): string {
  const ann = annotations(pv)[annBetaStorageClass];
  if (ann !== undefined) return ann;
  return str(obj(pv['spec'])['storageClassName']);
}

/** CheckVolumeModeMismatches (an unset mode is Filesystem). */
export function volumeModeMismatch(pvc: JsonObject, pv: JsonObject): boolean {
  const mode = (o: JsonObject): string => str(obj(o['spec'])['volumeMode']) || 'Filesystem';
  return mode(pvc) !== mode(pv);
}

function accessModes(o: JsonObject): string[] {
  return arr(obj(o['spec'])['accessModes']).filter((m): m is string => typeof m === 'string');
}

/** CheckAccessModes: the volume offers every mode the claim asks for. */
export function accessModesSatisfied(pvc: JsonObject, pv: JsonObject): boolean {
  const offered = new Set(accessModes(pv));
  return accessModes(pvc).every((m) => offered.has(m));
}

const modeShort: readonly (readonly [string, string])[] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: the index key of a volume ("RWO,ROX"), known modes only, in order. */
export function accessModesKey(modes: readonly string[]): string {
  return modeShort
    .filter(([m]) => modes.includes(m))
    .map(([, s]) => s)
    .join(',');
}

function modesOfKey(key: string): string[] {
  const parts = key === '' ? [] : key.split(',');
  return modeShort.filter(([, s]) => parts.includes(s)).map(([m]) => m);
}

/** IsVolumeBoundToClaim: claimRef names the claim (and, when it has one, its uid). */
export function isVolumeBoundToClaim(pv: JsonObject, pvc: JsonObject): boolean {
  const ref = obj(pv['spec'])['claimRef'];
  if (!isJsonObject(ref)) return false;
  if (str(ref['name']) !== name(pvc) || str(ref['namespace']) !== namespace(pvc)) return false;
  const refUid = str(ref['uid']);
  return refUid === '' || refUid === uid(pvc);
}

export class SelectorError extends Error {}

/**
 * FindMatchingVolume over one access-mode group (the controller's path: no node, nothing
 * excluded). `delayBinding`: only a volume pre-bound to the claim may match.
 */
export function findMatchingVolume(
  pvc: JsonObject,
  volumes: readonly JsonObject[],
  delayBinding: boolean,
): JsonObject | undefined {
  const requested = claimRequest(pvc);
  const requestedClass = claimClass(pvc);
  const selectorJson = obj(pvc['spec'])['selector'];
  let matches: ((labels: Record<string, string>) => boolean) | undefined;
  if (isJsonObject(selectorJson)) {
    const s = asSelector(selectorJson);
    if (!s.ok) {
      throw new SelectorError(
        `error creating internal label selector for claim: ${namespace(pvc)}/${name(pvc)}`,
      );
    }
    matches = (l) => s.matches(l);
  }
  let smallest: JsonObject | undefined;
  let smallestQty: Quantity | undefined;
  for (const pv of volumes) {
    const qty = volumeCapacity(pv);
    if (volumeModeMismatch(pvc, pv)) continue;
    if (deleting(pv)) continue;
    if (isVolumeBoundToClaim(pv, pvc)) {
      // Pre-bound: taken if big enough, otherwise the search goes on.
      if (compareQuantity(qty, requested) < 0) continue;
      return pv;
    }
    if (delayBinding) continue;
    if (str(obj(pv['status'])['phase']) !== 'Available') continue;
    if (isJsonObject(obj(pv['spec'])['claimRef'])) continue;
    if (matches !== undefined && !matches(labelsOf(pv))) continue;
    if (volumeClass(pv) !== requestedClass) continue;
    if (compareQuantity(qty, requested) >= 0) {
      if (smallestQty === undefined || compareQuantity(smallestQty, qty) > 0) {
        smallest = pv;
        smallestQty = qty;
      }
    }
  }
  return smallest;
}

function labelsOf(o: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  const l = meta(o)['labels'];
  if (isJsonObject(l)) for (const [k, v] of Object.entries(l)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * findBestMatchForClaim: the access-mode groups that offer every requested mode, fewest modes
 * first (ties by key, for a stable order), and the first group's match.
 */
export function findBestMatchForClaim(
  pvc: JsonObject,
  volumes: readonly JsonObject[],
  delayBinding: boolean,
): JsonObject | undefined {
  const groups = new Map<string, JsonObject[]>();
  for (const pv of volumes) {
    const key = accessModesKey(accessModes(pv));
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [pv]);
    else group.push(pv);
  }
  const requested = accessModes(pvc);
  const keys = [...groups.keys()]
    .filter((k) => {
      const offered = modesOfKey(k);
      return requested.every((m) => offered.includes(m));
    })
    .sort((a, b) => modesOfKey(a).length - modesOfKey(b).length || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const found = findMatchingVolume(pvc, groups.get(key) ?? [], delayBinding);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** checkVolumeSatisfyClaim: why a requested (spec.volumeName) volume does not fit, or undefined. */
export function volumeUnfitReason(pv: JsonObject, pvc: JsonObject): string | undefined {
  if (deleting(pv)) return `the volume is marked for deletion "${name(pv)}"`;
  if (compareQuantity(volumeCapacity(pv), claimRequest(pvc)) < 0) return 'requested PV is too small';
  if (volumeClass(pv) !== claimClass(pvc)) return 'storageClassName does not match';
  if (volumeModeMismatch(pvc, pv)) return 'incompatible volumeMode';
  if (!accessModesSatisfied(pvc, pv)) return 'incompatible accessMode';
  return undefined;
}
