/**
 * The StatefulSet controller (upstream v1.27 pkg/controller/statefulset, AM-10): pods
 * `<name>-<ordinal>` for ordinals [spec.ordinals.start, start + replicas) (StatefulSetStartOrdinal,
 * beta and on in v1.27), each with hostname, subdomain, the `statefulset.kubernetes.io/pod-name`
 * and `controller-revision-hash` labels, and claims `<template>-<name>-<ordinal>` created before the
 * pod. OrderedReady creates, deletes and replaces one pod at a time, waiting for Running and Ready
 * (and minReadySeconds); Parallel acts on all at once. Scale-down goes in reverse ordinal order.
 * The template's history is kept in ControllerRevisions `<name>-<hash>`; RollingUpdate replaces pods
 * from the highest ordinal down to the partition, OnDelete only when pods are deleted, and with
 * MaxUnavailableStatefulSet (alpha, off) up to maxUnavailable pods at a time. The PVC retention
 * policy (StatefulSetAutoDeletePVC, beta and on) sets claims' owner references to the set or the
 * pod so the garbage collector deletes them. Status as upstream, including the rolling update's
 * completion (currentRevision := updateRevision).
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, jsonEqual } from '../../util/json.js';
import { DelayedAdds, realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { revisionTemplate } from '../util/history.js';
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  controllerOf,
  deleting,
  errorMessage,
  labels,
  meta,
  name,
  namespace,
  num,
  obj,
  str,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import { syncRevisions, truncateHistory } from '../util/revisions.js';
import {
  claimOwnerRefs,
  claimsFor,
  computeReplicaStatus,
  isCreated,
  isFinished,
  isHealthy,
  isMemberOf,
  isRunningAndAvailable,
  isRunningAndReady,
  newStatefulSetPod,
  ordinalOf,
  podNameLabel,
  podRevision,
  replicasOf,
  retentionPolicy,
  startOrdinal,
  wantedClaimOwners,
} from './stateful-pod.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { resolveControllerRef } from '../util/controller-ref.js';

export interface StatefulSetFeatures {
  /** StatefulSetStartOrdinal (beta, default true in v1.27). */
  readonly startOrdinal?: boolean;
  /** StatefulSetAutoDeletePVC (beta, default true in v1.27). */
  readonly autoDeletePVC?: boolean;
  /** MaxUnavailableStatefulSet (alpha, default false in v1.27). */
  readonly maxUnavailable?: boolean;
}

export interface StatefulSetControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys synced in parallel (upstream --concurrent-statefulset-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
  readonly features?: StatefulSetFeatures;
  /** Where SuccessfulCreate/SuccessfulDelete/FailedCreate/FailedDelete events go (default: none). */
  readonly events?: ControllerEvents;
}

/** intstr.GetScaledValueFromIntOrPercent. */
function scaledIntOrPercent(v: JsonValue | undefined, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v !== 'string' || !/^[+-]?\d+%$/.test(v))
    throw new Error(`invalid value for IntOrString: ${JSON.stringify(v ?? null)}`);
  const x = (Number(v.slice(0, -1)) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

const setsPath = '/apis/apps/v1/statefulsets';
const podsPath = '/api/v1/pods';
const revisionsPath = '/apis/apps/v1/controllerrevisions';
const claimsPath = '/api/v1/persistentvolumeclaims';
const setsOf = (ns: string): string => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/statefulsets`;
const podsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;
const claimsOf = (ns: string): string =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/persistentvolumeclaims`;

function isCode(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

/** Runs `fn` over `items` in slow-start batches (1, 2, 4, ...), stopping at the first failing batch. */
async function slowStartBatch<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  for (let batch = 1; i < items.length; batch *= 2) {
    const chunk = items.slice(i, i + batch);
    i += chunk.length;
    const results = await Promise.allSettled(chunk.map(fn));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
}

export class StatefulSetController {
  readonly #o: StatefulSetControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #events: ControllerEvents;
  readonly #startGate: boolean;
  readonly #pvcGate: boolean;
  readonly #maxUnavailableGate: boolean;
  #sets: SharedInformer | undefined;
  #claims: SharedInformer | undefined;
  #podIndex: NamespaceIndex | undefined;
  #revIndex: NamespaceIndex | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: StatefulSetControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#events = o.events ?? noEvents;
    this.#startGate = o.features?.startOrdinal ?? true;
    this.#pvcGate = o.features?.autoDeletePVC ?? true;
    this.#maxUnavailableGate = o.features?.maxUnavailable ?? false;
    this.#queue = controllerQueue('StatefulSet', o.onError, this.#clock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const sets = this.#o.informers.informerFor(setsPath);
    const pods = this.#o.informers.informerFor(podsPath);
    const revisions = this.#o.informers.informerFor(revisionsPath);
    const claims = this.#o.informers.informerFor(claimsPath);
    this.#sets = sets;
    this.#claims = claims;
    this.#podIndex = new NamespaceIndex(pods);
    this.#revIndex = new NamespaceIndex(revisions);
    this.#podIndex.start();
    this.#revIndex.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const regs = [
      sets.addEventHandler({
        onAdd: (s) => this.#enqueue(s),
        onUpdate: (_o, s) => this.#enqueue(s),
        onDelete: (s) => this.#enqueue(s),
      }),
      pods.addEventHandler({
        onAdd: (p) => this.#podChanged(p),
        onUpdate: (old, p) => {
          if (str(meta(old)['resourceVersion']) === str(meta(p)['resourceVersion'])) return;
          const oldRef = controllerOf(old);
          if (oldRef?.uid !== controllerOf(p)?.uid) this.#podChanged(old);
          this.#podChanged(p);
        },
        onDelete: (p) => this.#podChanged(p),
      }),
      revisions.addEventHandler({
        onAdd: (r) => this.#ownerChanged(r),
        onUpdate: (_o, r) => this.#ownerChanged(r),
        onDelete: (r) => this.#ownerChanged(r),
      }),
    ];
    try {
      if (!(await informersSynced([sets, pods, revisions, claims], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#sync(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
      this.#podIndex.stop();
      this.#revIndex.stop();
      delayed.cancelAll();
    }
  }

  #enqueue(set: JsonObject): void {
    this.#queue.add(keyFor(namespace(set), name(set)));
  }

  #resolve(ns: string, ref: OwnerRef | undefined): JsonObject | undefined {
    return resolveControllerRef(this.#sets, 'StatefulSet', ns, ref);
  }

  #ownerChanged(o: JsonObject): void {
    const set = this.#resolve(namespace(o), controllerOf(o));
    if (set !== undefined) this.#enqueue(set);
  }

  #podChanged(pod: JsonObject): void {
    const ref = controllerOf(pod);
    if (ref !== undefined) {
      this.#ownerChanged(pod);
      return;
    }
    // An orphan: every set that would adopt it.
    for (const set of this.#sets?.store.list() ?? []) {
      if (namespace(set) !== namespace(pod) || !isMemberOf(set, pod)) continue;
      const s = asSelector(obj(obj(set['spec'])['selector']));
      if (s.ok && !s.empty && s.matches(labels(pod))) this.#enqueue(set);
    }
  }

  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    const cached = this.#sets?.store.get(key);
    if (cached === undefined) return undefined;
    const set = cloneJson(cached);
    const sel = asSelector(obj(obj(set['spec'])['selector']));
    if (!sel.ok || sel.empty) return undefined; // upstream: a selector that selects nothing or everything is ignored.
    const ns = namespace(set);
    const revisions = (this.#revIndex?.list(ns) ?? []).filter((r) => controllerOf(r)?.uid === uid(set));
    const pods = await this.#claimPods(set, (l) => sel.matches(l), signal);
    const status = obj(set['status']);
    const synced = await syncRevisions({
      client: this.#o.client,
      owner: set,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'StatefulSet',
      revisions,
      collisionCount: num(status['collisionCount']),
      signal,
    });
    const updateRevision = synced.update;
    const currentRevision =
      synced.all.find(
        (r) => name(r) === str(status['currentRevision']) && str(status['currentRevision']) !== '',
      ) ?? updateRevision;
    const now = this.#clock.now();
    const next = deleting(set)
      ? { ...computeStatusBase(set, pods, name(currentRevision), name(updateRevision), now) }
      : await this.#updateStatefulSet(set, pods, currentRevision, updateRevision, signal);
    next.collisionCount = synced.collisionCount;
    next.observedGeneration = num(meta(set)['generation']);
    completeRollingUpdate(set, next);
    await this.#updateStatus(set, next, signal);
    const live = new Set<string>([name(currentRevision), name(updateRevision)]);
    for (const p of pods) live.add(podRevision(p));
    await truncateHistory({
      client: this.#o.client,
      revisions: synced.all,
      live,
      limit: num(obj(set['spec'])['revisionHistoryLimit'], 10),
      signal,
    });
    const minReady = num(obj(set['spec'])['minReadySeconds']);
    if (minReady > 0 && num(next['availableReplicas']) !== replicasOf(set)) {
      this.#delayed?.addAfter(key, minReady * 1000);
    }
    return undefined;
  }

  /** ClaimPods with isMemberOf: adopt matching orphans named after the set, release non-matching pods. */
  async #claimPods(
    set: JsonObject,
    matches: (l: Record<string, string>) => boolean,
    signal: AbortSignal,
  ): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    for (const pod of this.#podIndex?.list(namespace(set)) ?? []) {
      const ref = controllerOf(pod);
      const ok = matches(labels(pod)) && isMemberOf(set, pod);
      if (ref !== undefined) {
        if (ref.uid !== uid(set)) continue;
        if (ok) out.push(pod);
        else if (!deleting(set)) await this.#patchOwner(pod, { $patch: 'delete', uid: uid(set) }, signal);
        continue;
      }
      if (!ok || deleting(set) || deleting(pod)) continue;
      const adopted = await this.#patchOwner(
        pod,
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: name(set),
          uid: uid(set),
          controller: true,
          blockOwnerDeletion: true,
        },
        signal,
      );
      if (adopted) out.push(pod);
    }
    return out;
  }

  async #patchOwner(pod: JsonObject, ref: JsonObject, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#o.client.request('PATCH', `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`, {
        body: { metadata: { ownerReferences: [ref], uid: uid(pod) } },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
      return true;
    } catch (err) {
      if (isCode(err, 404) || isCode(err, 422)) return false;
      throw err;
    }
  }

  /** updateStatefulSet of stateful_set_control.go. */
  async #updateStatefulSet(
    set: JsonObject,
    pods: JsonObject[],
    currentRevision: JsonObject,
    updateRevision: JsonObject,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    const now = this.#clock.now();
    const spec = obj(set['spec']);
    const currentName = name(currentRevision);
    const updateName = name(updateRevision);
    const status = computeStatusBase(set, pods, currentName, updateName, now);
    const replicaCount = replicasOf(set);
    const start = startOrdinal(set, this.#startGate);
    const end = start + replicaCount;
    const monotonic = str(spec['podManagementPolicy']) !== 'Parallel';
    const minReady = num(spec['minReadySeconds']);
    const currentTemplate = revisionTemplate(currentRevision);
    const updateTemplate = obj(spec['template']);
    const replicas: (JsonObject | undefined)[] = new Array<JsonObject | undefined>(replicaCount).fill(
      undefined,
    );
    const condemned: JsonObject[] = [];
    for (const p of pods) {
      const ord = ordinalOf(p);
      if (ord < 0) continue;
      if (ord >= start && ord < end) replicas[ord - start] = p;
      else condemned.push(p);
    }
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    const strategy = obj(spec['updateStrategy']);
    const rolling = str(strategy['type']) !== 'OnDelete';
    const partition = num(obj(strategy['rollingUpdate'])['partition']);
    const hasRollingParams = strategy['rollingUpdate'] !== undefined;
    // newVersionedStatefulSetPod: ordinals below the partition (or the current replicas) stay at the current revision.
    const planned = (ordinal: number): JsonObject => {
      const atCurrent =
        rolling &&
        (hasRollingParams
          ? ordinal < start + partition
          : ordinal < start + num(obj(set['status'])['currentReplicas']));
      return atCurrent
        ? newStatefulSetPod(set, currentTemplate, ordinal, currentName)
        : newStatefulSetPod(set, updateTemplate, ordinal, updateName);
    };
    // The first unhealthy replica, else the unhealthy condemned pod of the lowest ordinal (condemned
    // is sorted highest first, and upstream walks it from its end).
    let firstUnhealthy: JsonObject | undefined;
    for (const p of [...replicas, ...[...condemned].reverse()]) {
      if (p !== undefined && !isHealthy(p)) {
        firstUnhealthy = p;
        break;
      }
    }
    const policy = retentionPolicy(set);

    const processReplica = async (i: number): Promise<boolean> => {
      const pod = replicas[i];
      const ordinal = start + i;
      if (pod !== undefined && isFinished(pod)) {
        if (!deleting(pod)) await this.#deletePod(set, pod, signal);
        return true;
      }
      if (pod === undefined || !isCreated(pod)) {
        const fresh = planned(ordinal);
        if (this.#pvcGate && this.#claimsStale(set, ordinal)) return true;
        await this.#createClaims(set, ordinal, signal);
        await this.#createPod(set, fresh, signal);
        status['replicas'] = num(status['replicas']) + 1;
        if (str(podRevision(fresh)) === currentName)
          status['currentReplicas'] = num(status['currentReplicas']) + 1;
        if (str(podRevision(fresh)) === updateName)
          status['updatedReplicas'] = num(status['updatedReplicas']) + 1;
        return monotonic;
      }
      if (str(obj(pod['status'])['phase']) === 'Pending') await this.#createClaims(set, ordinal, signal);
      if (deleting(pod) && monotonic) return true;
      if (!isRunningAndReady(pod) && monotonic) return true;
      if (!isRunningAndAvailable(pod, minReady, this.#clock.now()) && monotonic) return true;
      if (labels(pod)[podNameLabel] !== name(pod)) {
        await this.#o.client.request('PATCH', `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`, {
          body: { metadata: { labels: { [podNameLabel]: name(pod) } } },
          contentType: 'application/merge-patch+json',
          signal,
        });
      }
      if (this.#pvcGate)
        await this.#fixClaimOwners(set, pod, ordinal, wantedClaimOwners(policy, false), signal);
      return false;
    };

    const processCondemned = async (i: number): Promise<boolean> => {
      const pod = condemned[i]!;
      if (deleting(pod)) return monotonic;
      if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return true;
      if (!isRunningAndAvailable(pod, minReady, this.#clock.now()) && monotonic && pod !== firstUnhealthy)
        return true;
      await this.#deletePod(set, pod, signal);
      return true;
    };

    const runForAll = async (n: number, fn: (i: number) => Promise<boolean>): Promise<boolean> => {
      if (monotonic) {
        for (let i = 0; i < n; i++) if (await fn(i)) return true;
        return false;
      }
      await slowStartBatch(
        Array.from({ length: n }, (_, i) => i),
        async (i) => {
          await fn(i);
        },
      );
      return false;
    };

    if (await runForAll(replicaCount, processReplica)) return status;
    if (this.#pvcGate) {
      for (const pod of condemned) {
        await this.#fixClaimOwners(set, pod, ordinalOf(pod), wantedClaimOwners(policy, true), signal);
      }
    }
    if (await runForAll(condemned.length, processCondemned)) return status;
    if (!rolling) return status;

    const updateMin = hasRollingParams ? partition : 0;
    if (this.#maxUnavailableGate) {
      const maxUnavailable = Math.max(
        1,
        scaledIntOrPercent(obj(strategy['rollingUpdate'])['maxUnavailable'] ?? 1, replicaCount, false),
      );
      let unavailable = 0;
      for (let t = 0; t < replicaCount; t++) {
        const p = replicas[t];
        if (p === undefined || !isRunningAndAvailable(p, minReady, this.#clock.now()) || deleting(p))
          unavailable++;
      }
      const toDelete: JsonObject[] = [];
      for (let t = replicaCount - 1; t >= updateMin; t--) {
        const p = replicas[t];
        if (p === undefined || deleting(p) || podRevision(p) === updateName) continue;
        if (!isRunningAndAvailable(p, minReady, this.#clock.now())) toDelete.push(p);
        else if (unavailable < maxUnavailable) {
          toDelete.push(p);
          unavailable++;
        }
        if (monotonic && toDelete.length > 0 && unavailable >= maxUnavailable) break;
      }
      for (const p of toDelete) {
        await this.#deletePod(set, p, signal);
        if (podRevision(p) === currentName) status['currentReplicas'] = num(status['currentReplicas']) - 1;
      }
      return status;
    }
    for (let t = replicaCount - 1; t >= updateMin; t--) {
      const p = replicas[t];
      if (p === undefined) return status;
      if (podRevision(p) !== updateName && !deleting(p)) {
        await this.#deletePod(set, p, signal);
        if (podRevision(p) === currentName) status['currentReplicas'] = num(status['currentReplicas']) - 1;
        return status;
      }
      if (!isHealthy(p)) return status;
    }
    return status;
  }

  async #createPod(set: JsonObject, pod: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('POST', podsOf(namespace(pod)), { body: pod, signal });
      this.#events.event(
        set,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${name(pod)} in StatefulSet ${name(set)} successful`,
      );
    } catch (err) {
      if (isCode(err, 409)) return;
      if (!signal.aborted) {
        this.#events.event(
          set,
          'Warning',
          'FailedCreate',
          `create Pod ${name(pod)} in StatefulSet ${name(set)} failed error: ${errorMessage(err)}`,
        );
      }
      throw err;
    }
  }

  /** Deletes the pod (a uid precondition, so a pod recreated under the name is never hit). */
  async #deletePod(set: JsonObject, pod: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('DELETE', `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`, {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: uid(pod) } },
        signal,
      });
      this.#events.event(
        set,
        'Normal',
        'SuccessfulDelete',
        `delete Pod ${name(pod)} in StatefulSet ${name(set)} successful`,
      );
    } catch (err) {
      if (isCode(err, 404) || isCode(err, 409)) return;
      if (!signal.aborted) {
        this.#events.event(
          set,
          'Warning',
          'FailedDelete',
          `delete Pod ${name(pod)} in StatefulSet ${name(set)} failed error: ${errorMessage(err)}`,
        );
      }
      throw err;
    }
  }

  /** PodClaimIsStale: a claim of this ordinal is being deleted (wait for it to go). */
  #claimsStale(set: JsonObject, ordinal: number): boolean {
    return claimsFor(set, ordinal).some((c) => {
      const existing = this.#claims?.store.get(keyFor(namespace(set), name(c)));
      return existing !== undefined && deleting(existing);
    });
  }

  /** createPersistentVolumeClaims: each missing claim of the ordinal. */
  async #createClaims(set: JsonObject, ordinal: number, signal: AbortSignal): Promise<void> {
    const policy = retentionPolicy(set);
    for (const claim of claimsFor(set, ordinal)) {
      const existing = this.#claims?.store.get(keyFor(namespace(set), name(claim)));
      if (existing !== undefined) {
        if (deleting(existing)) {
          throw new Error(`pvc ${name(claim)} is being deleted`);
        }
        continue;
      }
      if (this.#pvcGate && wantedClaimOwners(policy, false).set) {
        obj(claim['metadata'])['ownerReferences'] = [
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: name(set), uid: uid(set) },
        ];
      }
      try {
        await this.#o.client.request('POST', claimsOf(namespace(set)), { body: claim, signal });
        this.#events.event(
          set,
          'Normal',
          'SuccessfulCreate',
          `create Claim ${name(claim)} Pod ${name(set)}-${ordinal} in StatefulSet ${name(set)} success`,
        );
      } catch (err) {
        if (!isCode(err, 409)) throw err;
      }
    }
  }

  /** UpdatePodClaimForRetentionPolicy: the claims' owner references as the policy wants them. */
  async #fixClaimOwners(
    set: JsonObject,
    pod: JsonObject,
    ordinal: number,
    want: { readonly set: boolean; readonly pod: boolean },
    signal: AbortSignal,
  ): Promise<void> {
    for (const claim of claimsFor(set, ordinal)) {
      const existing = this.#claims?.store.get(keyFor(namespace(set), name(claim)));
      if (existing === undefined || deleting(existing)) continue;
      const refs = claimOwnerRefs(existing, set, pod, want);
      if (refs === undefined) continue;
      try {
        await this.#o.client.request(
          'PATCH',
          `${claimsOf(namespace(set))}/${encodeURIComponent(name(claim))}`,
          {
            body: {
              metadata: { ownerReferences: refs, resourceVersion: str(meta(existing)['resourceVersion']) },
            },
            contentType: 'application/merge-patch+json',
            signal,
          },
        );
      } catch (err) {
        if (!isCode(err, 404) && !isCode(err, 409)) throw err;
      }
    }
  }

  /** updateStatefulSetStatus: written when it differs (retried on conflict with a fresh read). */
  async #updateStatus(set: JsonObject, status: JsonObject, signal: AbortSignal): Promise<void> {
    let current = set;
    for (let attempt = 0; ; attempt++) {
      const merged: JsonObject = { ...obj(current['status']), ...status };
      for (const k of Object.keys(merged)) {
        if (merged[k] === undefined || (omitEmpty.has(k) && (merged[k] === 0 || merged[k] === '')))
          delete merged[k];
      }
      if (jsonEqual(merged, obj(current['status']))) return;
      try {
        await this.#o.client.request(
          'PUT',
          `${setsOf(namespace(set))}/${encodeURIComponent(name(set))}/status`,
          { body: { ...current, status: merged }, signal },
        );
        return;
      } catch (err) {
        if (!isCode(err, 409) || attempt >= 3) {
          if (isCode(err, 404)) return;
          throw err;
        }
        current = await this.#o.client.request(
          'GET',
          `${setsOf(namespace(set))}/${encodeURIComponent(name(set))}`,
          {
            signal,
          },
        );
        if (uid(current) !== uid(set)) return;
      }
    }
  }
}

/** StatefulSetStatus fields written only when not zero (`omitempty`). */
const omitEmpty = new Set([
  'observedGeneration',
  'readyReplicas',
  'currentReplicas',
  'updatedReplicas',
  'currentRevision',
  'updateRevision',
]);

/** The status computed from the pods at the start of a sync. */
function computeStatusBase(
  set: JsonObject,
  pods: readonly JsonObject[],
  currentName: string,
  updateName: string,
  now: number,
): JsonObject {
  const s = computeReplicaStatus(
    pods,
    num(obj(set['spec'])['minReadySeconds']),
    currentName,
    updateName,
    now,
  );
  return {
    replicas: s.replicas,
    readyReplicas: s.readyReplicas,
    availableReplicas: s.availableReplicas,
    currentReplicas: s.currentReplicas,
    updatedReplicas: s.updatedReplicas,
    currentRevision: currentName,
    updateRevision: updateName,
  };
}

/** completeRollingUpdate: every pod updated and ready makes the update revision current. */
function completeRollingUpdate(set: JsonObject, status: JsonObject): void {
  const rolling = str(obj(obj(set['spec'])['updateStrategy'])['type']) !== 'OnDelete';
  if (
    rolling &&
    num(status['updatedReplicas']) === num(status['replicas']) &&
    num(status['readyReplicas']) === num(status['replicas'])
  ) {
    status['currentReplicas'] = status['updatedReplicas'] ?? 0;
    status['currentRevision'] = status['updateRevision'] ?? '';
  }
}
