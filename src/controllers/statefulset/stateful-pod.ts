/**
 * Pure StatefulSet helpers of upstream v1.27 (pkg/controller/statefulset/stateful_set_utils.go):
 * pod identity (`<set>-<ordinal>`, hostname, subdomain, the pod-name label), the claims of a pod
 * (`<template>-<set>-<ordinal>`), the PVC retention policy's owner references
 * (StatefulSetAutoDeletePVC, beta and on in v1.27), and the replica status.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { controllerRevisionHashLabel } from '../util/history.js';
import {
  arr,
  deleting,
  labels,
  meta,
  name,
  namespace,
  num,
  obj,
  str,
  stringMap,
  uid,
} from '../util/objects.js';
import { isPodAvailable, isPodReady, podPhase } from '../util/pods.js';

export const podNameLabel = 'statefulset.kubernetes.io/pod-name';

const ordinalPattern = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: the set's name and the ordinal of a pod name, or ordinal -1. */
export function parentAndOrdinal(podName: string): { readonly parent: string; readonly ordinal: number } {
  const m = ordinalPattern.exec(podName);
  if (m === null) return { parent: '', ordinal: -1 };
  const ordinal = Number(m[2]);
  return Number.isSafeInteger(ordinal) && ordinal <= 2 ** 31 - 1
    ? { parent: m[1] ?? '', ordinal }
    : { parent: '', ordinal: -1 };
}

export function ordinalOf(pod: JsonObject): number {
  return parentAndOrdinal(name(pod)).ordinal;
}

/** isMemberOf: the pod's name says it belongs to the set. */
export function isMemberOf(set: JsonObject, pod: JsonObject): boolean {
  return parentAndOrdinal(name(pod)).parent === name(set);
}

export function replicasOf(set: JsonObject): number {
  return num(obj(set['spec'])['replicas'], 1);
}

/** getStartOrdinal: spec.ordinals.start when StatefulSetStartOrdinal is on (beta, default on in v1.27). */
export function startOrdinal(set: JsonObject, gate = true): number {
  return gate ? num(obj(obj(set['spec'])['ordinals'])['start']) : 0;
}

export function claimName(template: string, set: string, ordinal: number): string {
  return `${template}-${set}-${ordinal}`;
}

function claimTemplates(set: JsonObject): JsonObject[] {
  return arr(obj(set['spec'])['volumeClaimTemplates']).filter(isJsonObject);
}

/** getPersistentVolumeClaims: each template as the claim of this ordinal, labelled with the selector's matchLabels. */
export function claimsFor(set: JsonObject, ordinal: number): JsonObject[] {
  const matchLabels = stringMap(obj(obj(set['spec'])['selector'])['matchLabels']);
  return claimTemplates(set).map((t) => {
    const tm = obj(t['metadata']);
    const m: JsonObject = {
      ...tm,
      name: claimName(str(tm['name']), name(set), ordinal),
      namespace: namespace(set),
    };
    const l = { ...stringMap(tm['labels']), ...matchLabels };
    if (Object.keys(l).length > 0) m['labels'] = l;
    delete m['uid'];
    delete m['resourceVersion'];
    delete m['creationTimestamp'];
    const claim: JsonObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: m };
    if (t['spec'] !== undefined) claim['spec'] = t['spec'];
    return claim;
  });
}

/** The pod of `ordinal` made from `template` (newStatefulSetPod + setPodRevision). */
export function newStatefulSetPod(
  set: JsonObject,
  template: JsonObject,
  ordinal: number,
  revisionName: string,
): JsonObject {
  const podName = `${name(set)}-${ordinal}`;
  const tm = obj(template['metadata']);
  const m: JsonObject = {
    name: podName,
    namespace: namespace(set),
    labels: {
      ...stringMap(tm['labels']),
      [podNameLabel]: podName,
      [controllerRevisionHashLabel]: revisionName,
    },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: name(set),
        uid: uid(set),
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
  const ann = stringMap(tm['annotations']);
  if (Object.keys(ann).length > 0) m['annotations'] = ann;
  if (tm['finalizers'] !== undefined) m['finalizers'] = tm['finalizers'];
  const spec: JsonObject = { ...obj(template['spec']) };
  // updateStorage: the claims' volumes first, then the template's other volumes.
  const claimVolumes: JsonValue[] = [];
  const claimNames = new Set<string>();
  for (const t of claimTemplates(set)) {
    const tn = str(obj(t['metadata'])['name']);
    claimNames.add(tn);
    claimVolumes.push({ name: tn, persistentVolumeClaim: { claimName: claimName(tn, name(set), ordinal) } });
  }
  if (claimVolumes.length > 0) {
    const others = arr(spec['volumes']).filter((v) => !(isJsonObject(v) && claimNames.has(str(v['name']))));
    spec['volumes'] = [...claimVolumes, ...others];
  }
  // updateIdentity.
  spec['hostname'] = podName;
  const serviceName = str(obj(set['spec'])['serviceName']);
  if (serviceName !== '') spec['subdomain'] = serviceName;
  return { apiVersion: 'v1', kind: 'Pod', metadata: m, spec };
}

export function podRevision(pod: JsonObject): string {
  return labels(pod)[controllerRevisionHashLabel] ?? '';
}

/** isCreated: the pod has a phase. */
export function isCreated(pod: JsonObject): boolean {
  return podPhase(pod) !== '';
}

export function isRunningAndReady(pod: JsonObject): boolean {
  return podPhase(pod) === 'Running' && isPodReady(pod);
}

export function isRunningAndAvailable(pod: JsonObject, minReadySeconds: number, now: number): boolean {
  return podPhase(pod) === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}

/** isHealthy: running, ready and not terminating. */
export function isHealthy(pod: JsonObject): boolean {
  return isRunningAndReady(pod) && !deleting(pod);
}

export function isFinished(pod: JsonObject): boolean {
  const p = podPhase(pod);
  return p === 'Failed' || p === 'Succeeded';
}

export interface RetentionPolicy {
  readonly whenDeleted: 'Retain' | 'Delete';
  readonly whenScaled: 'Retain' | 'Delete';
}

export function retentionPolicy(set: JsonObject): RetentionPolicy {
  const p = obj(obj(set['spec'])['persistentVolumeClaimRetentionPolicy']);
  return {
    whenDeleted: p['whenDeleted'] === 'Delete' ? 'Delete' : 'Retain',
    whenScaled: p['whenScaled'] === 'Delete' ? 'Delete' : 'Retain',
  };
}

export interface ClaimOwners {
  /** Owned (non-controller) by the set. */
  readonly set: boolean;
  /** Owned (non-controller) by the pod. */
  readonly pod: boolean;
}

/** What claimOwnerMatchesSetAndPod wants of a claim of a pod that is (or is not) condemned. */
export function wantedClaimOwners(policy: RetentionPolicy, condemned: boolean): ClaimOwners {
  if (policy.whenDeleted === 'Retain' && policy.whenScaled === 'Retain') return { set: false, pod: false };
  if (policy.whenDeleted === 'Retain') return { set: false, pod: condemned };
  if (policy.whenScaled === 'Retain') return { set: true, pod: false };
  return condemned ? { set: false, pod: true } : { set: true, pod: false };
}

/** The claim's owner references with the set's and pod's set or removed as `want` says. */
export function claimOwnerRefs(
  claim: JsonObject,
  set: JsonObject,
  pod: JsonObject | undefined,
  want: ClaimOwners,
): JsonObject[] | undefined {
  const refs = arr(meta(claim)['ownerReferences']).filter(isJsonObject);
  const has = (u: string): boolean => refs.some((r) => str(r['uid']) === u);
  const setUid = uid(set);
  const podUid = pod === undefined ? '' : uid(pod);
  let out = refs;
  let changed = false;
  if (want.set !== has(setUid)) {
    changed = true;
    out = want.set
      ? [...out, { apiVersion: 'apps/v1', kind: 'StatefulSet', name: name(set), uid: setUid }]
      : out.filter((r) => str(r['uid']) !== setUid);
  }
  if (pod !== undefined && want.pod !== has(podUid)) {
    changed = true;
    out = want.pod
      ? [...out, { apiVersion: 'v1', kind: 'Pod', name: name(pod), uid: podUid }]
      : out.filter((r) => str(r['uid']) !== podUid);
  }
  return changed ? out : undefined;
}

export interface ReplicaStatus {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
}

/** computeReplicaStatus over the set's pods. */
export function computeReplicaStatus(
  pods: readonly JsonObject[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: number,
): ReplicaStatus {
  const s: ReplicaStatus = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
  };
  for (const p of pods) {
    if (isCreated(p)) s.replicas++;
    if (isRunningAndReady(p)) {
      s.readyReplicas++;
      if (isRunningAndAvailable(p, minReadySeconds, now)) s.availableReplicas++;
    }
    if (isCreated(p) && !deleting(p)) {
      const r = podRevision(p);
      if (r === currentRevision) s.currentReplicas++;
      if (r === updateRevision) s.updatedReplicas++;
    }
  }
  return s;
}
