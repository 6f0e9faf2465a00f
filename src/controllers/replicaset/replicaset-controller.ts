/**
 * The ReplicaSet controller (upstream v1.27 pkg/controller/replicaset), also run for core/v1
 * ReplicationControllers as upstream's ReplicationManager is: keeps `spec.replicas` active pods
 * made from `spec.template`, each with a controller ownerReference (blockOwnerDeletion) and the
 * generateName `<name>-`.
 *
 * A sync claims pods as upstream's PodControllerRefManager (adopts matching orphans with a
 * strategic merge patch after re-reading the owner to see it is not being deleted, releases owned
 * pods that no longer match), creates missing pods in slow-start batches (1, 2, 4, ...; at most
 * 500 per sync), deletes excess pods in ActivePodsWithRanks order, and waits on expectations so it
 * never acts twice before its informer has seen its own creations and deletions. Status carries
 * replicas, fullyLabeledReplicas, readyReplicas, availableReplicas (minReadySeconds), the
 * observedGeneration and a ReplicaFailure condition (FailedCreate/FailedDelete) while creating or
 * deleting fails (e.g. over quota). Terminating pods are not counted.
 */
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector, toMetav1Selector } from '../../machinery/labels/metav1.js';
import { labelSelectorFromSet } from '../../machinery/labels/selector.js';
import type { JsonObject } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { DelayedAdds, realClock, rfc3339 } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { ControllerExpectations } from '../util/expectations.js';
import type { ReadonlyStore } from '../../client/informer-store.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  arr,
  asError,
  controllerOf,
  deleting,
  errorMessage,
  labels,
  meta,
  name,
  namespace,
  newControllerRef,
  num,
  obj,
  str,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import { isPodActive, isPodAvailable, isPodReady, podReadyTime, podsToDelete } from '../util/pods.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { ownersSelecting, resolveControllerRef } from '../util/controller-ref.js';

/** Pod store indexes (shared by every controller using the pod informer). */
const podsByController = 'controller-uid';
const orphanPodsByNamespace = 'orphans-by-namespace';
/** Orphan pods by `namespace NUL key NUL value` for each of their labels. */
const orphanPodsByLabel = 'orphans-by-namespace-label';
const labelIndexValue = (ns: string, key: string, value: string): string => `${ns}\0${key}\0${value}`;

export interface ReplicaSetControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys synced in parallel (upstream --concurrent-replicaset-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
  /** Pods created or deleted per sync at most (upstream's BurstReplicas, 500). */
  readonly burstReplicas?: number;
  /** Where SuccessfulCreate/SuccessfulDelete/FailedCreate/FailedDelete events go (default: none). */
  readonly events?: ControllerEvents;
}

/** What differs between ReplicaSets and ReplicationControllers. */
interface WorkloadKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** Cluster-wide collection path (the informer's). */
  readonly path: string;
  collection(ns: string): string;
  /** The selector; undefined when it is malformed. */
  selector(o: JsonObject): { matches(l: Record<string, string>): boolean; empty: boolean } | undefined;
  /** Label pairs every pod the selector matches carries (a subset of its requirements). */
  requiredLabels(o: JsonObject): Record<string, string>;
}

const replicaSets: WorkloadKind = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  path: '/apis/apps/v1/replicasets',
  collection: (ns) => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/replicasets`,
  selector(o) {
    const s = asSelector(obj(obj(o['spec'])['selector']));
    return s.ok ? { matches: (l) => s.matches(l), empty: s.empty } : undefined;
  },
  requiredLabels(o) {
    return toMetav1Selector(obj(obj(o['spec'])['selector']))?.matchLabels ?? {};
  },
};

const replicationControllers: WorkloadKind = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  path: '/api/v1/replicationcontrollers',
  collection: (ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/replicationcontrollers`,
  selector(o) {
    const s = labelSelectorFromSet(labelsOf(obj(o['spec'])['selector']));
    return { matches: (l) => s.matches(l), empty: s.empty() };
  },
  requiredLabels(o) {
    return labelsOf(obj(o['spec'])['selector']);
  },
};

function labelsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

const podsPath = '/api/v1/pods';
const podsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  const causes = arr(obj(err.status?.['details'])['causes']);
  return causes.some((c) => isJsonObject(c) && c['type'] === 'NamespaceTerminating');
}

/** spec.replicas with the API's default of 1. */
export function specReplicas(o: JsonObject): number {
  return num(obj(o['spec'])['replicas'], 1);
}

export class ReplicaSetController {
  readonly #o: ReplicaSetControllerOptions;
  readonly #kind: WorkloadKind;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #expectations: ControllerExpectations;
  readonly #burst: number;
  readonly #events: ControllerEvents;
  #rsInformer: SharedInformer | undefined;
  #rsIndex: NamespaceIndex | undefined;
  #podStore: ReadonlyStore | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: ReplicaSetControllerOptions, kind: WorkloadKind = replicaSets) {
    this.#o = o;
    this.#kind = kind;
    this.#clock = o.clock ?? realClock;
    this.#burst = o.burstReplicas ?? 500;
    this.#events = o.events ?? noEvents;
    this.#expectations = new ControllerExpectations(this.#clock);
    this.#queue = controllerQueue(kind.kind, o.onError, this.#clock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const rsInformer = this.#o.informers.informerFor(this.#kind.path);
    const podInformer = this.#o.informers.informerFor(podsPath);
    this.#rsInformer = rsInformer;
    this.#rsIndex = new NamespaceIndex(rsInformer);
    podInformer.store.ensureIndex(podsByController, (p) => {
      const ref = controllerOf(p);
      return ref === undefined ? [] : [ref.uid];
    });
    podInformer.store.ensureIndex(orphanPodsByNamespace, (p) =>
      controllerOf(p) === undefined ? [namespace(p)] : [],
    );
    podInformer.store.ensureIndex(orphanPodsByLabel, (p) => {
      if (controllerOf(p) !== undefined) return [];
      const ns = namespace(p);
      return Object.entries(labels(p)).map(([k, v]) => labelIndexValue(ns, k, v));
    });
    this.#podStore = podInformer.store;
    this.#rsIndex.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const regs = [
      rsInformer.addEventHandler({
        onAdd: (rs) => this.#enqueue(rs),
        onUpdate: (_old, rs) => this.#enqueue(rs),
        onDelete: (rs) => {
          const key = keyFor(namespace(rs), name(rs));
          this.#expectations.delete(key);
          this.#queue.add(key);
        },
      }),
      podInformer.addEventHandler({
        onAdd: (pod) => this.#addPod(pod),
        onUpdate: (old, pod) => this.#updatePod(old, pod),
        onDelete: (pod) => this.#deletePod(pod),
      }),
    ];
    try {
      if (!(await informersSynced([rsInformer, podInformer], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#sync(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
      this.#rsIndex.stop();
      delayed.cancelAll();
    }
  }

  #enqueue(rs: JsonObject): void {
    this.#queue.add(keyFor(namespace(rs), name(rs)));
  }

  /** The workload `ref` names, if it is in the store with that uid. */
  #resolve(ns: string, ref: OwnerRef): JsonObject | undefined {
    return resolveControllerRef(this.#rsInformer, this.#kind.kind, ns, ref);
  }

  /** Workloads in the pod's namespace whose selector matches it (for orphans). */
  #matching(pod: JsonObject): JsonObject[] {
    return ownersSelecting(this.#rsIndex?.list(namespace(pod)) ?? [], pod, (rs) => this.#kind.selector(rs));
  }

  #addPod(pod: JsonObject): void {
    if (deleting(pod)) {
      this.#deletePod(pod);
      return;
    }
    const ref = controllerOf(pod);
    if (ref !== undefined) {
      const rs = this.#resolve(namespace(pod), ref);
      if (rs === undefined) return;
      const key = keyFor(namespace(rs), name(rs));
      this.#expectations.creationObserved(key);
      this.#queue.add(key);
      return;
    }
    for (const rs of this.#matching(pod)) this.#enqueue(rs);
  }

  #updatePod(old: JsonObject, pod: JsonObject): void {
    if (str(meta(old)['resourceVersion']) === str(meta(pod)['resourceVersion'])) return;
    const labelChanged = !jsonEqual(meta(old)['labels'] ?? {}, meta(pod)['labels'] ?? {});
    if (deleting(pod)) {
      this.#deletePod(pod);
      if (labelChanged) this.#deletePod(old);
      return;
    }
    const oldRef = controllerOf(old);
    const ref = controllerOf(pod);
    const refChanged = oldRef?.uid !== ref?.uid;
    if (refChanged && oldRef !== undefined) {
      const rs = this.#resolve(namespace(old), oldRef);
      if (rs !== undefined) this.#enqueue(rs);
    }
    if (ref !== undefined) {
      const rs = this.#resolve(namespace(pod), ref);
      if (rs === undefined) return;
      this.#enqueue(rs);
      const minReady = num(obj(rs['spec'])['minReadySeconds']);
      if (!isPodReady(old) && isPodReady(pod) && minReady > 0) {
        this.#delayed?.addAfter(keyFor(namespace(rs), name(rs)), minReady * 1000 + 1000);
      }
      return;
    }
    if (labelChanged || refChanged) for (const rs of this.#matching(pod)) this.#enqueue(rs);
  }

  #deletePod(pod: JsonObject): void {
    const ref = controllerOf(pod);
    if (ref === undefined) return;
    const rs = this.#resolve(namespace(pod), ref);
    if (rs === undefined) return;
    const key = keyFor(namespace(rs), name(rs));
    this.#expectations.deletionObserved(key, keyFor(namespace(pod), name(pod)));
    this.#queue.add(key);
  }

  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    const cached = this.#rsInformer?.store.get(key);
    if (cached === undefined) {
      this.#expectations.delete(key);
      return undefined;
    }
    const rs = cloneJson(cached);
    const needsSync = this.#expectations.satisfied(key);
    const selector = this.#kind.selector(rs);
    if (selector === undefined) return undefined; // A malformed selector: nothing to do.
    // Only pods this ReplicaSet controls and orphans can be claimed (pods of other controllers are
    // ignored by ClaimPods), so they are read from two indexes, not from the whole namespace.
    const active = this.#claimCandidates(rs).filter(isPodActive);
    const pods = await this.#claimPods(rs, selector, active, signal);
    let manageErr: unknown;
    if (needsSync && !deleting(rs)) {
      try {
        await this.#manageReplicas(key, rs, pods, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        manageErr = err;
      }
    }
    const now = this.#clock.now();
    const status = calculateStatus(rs, pods, manageErr, now);
    const updated = await this.#updateStatus(rs, status, signal);
    if (manageErr !== undefined) throw asError(manageErr);
    // Come back when the next ready pod becomes available.
    const minReady = num(obj(updated['spec'])['minReadySeconds']);
    if (minReady > 0) {
      let next: number | undefined;
      for (const p of pods) {
        const t = podReadyTime(p);
        if (t !== undefined && !isPodAvailable(p, minReady, now)) {
          const at = t + minReady * 1000 + 1;
          next = next === undefined ? at : Math.min(next, at);
        }
      }
      if (next !== undefined) this.#delayed?.addAfter(key, Math.max(1, next - now));
    }
    return undefined;
  }

  /** Upstream ClaimPods: adopt matching orphans, release owned pods that no longer match. */
  async #claimPods(
    rs: JsonObject,
    selector: { matches(l: Record<string, string>): boolean },
    pods: JsonObject[],
    signal: AbortSignal,
  ): Promise<JsonObject[]> {
    const claimed: JsonObject[] = [];
    let canAdopt: Promise<boolean> | undefined;
    const errors: unknown[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      const matches = selector.matches(labels(pod));
      try {
        if (ref !== undefined) {
          if (ref.uid !== uid(rs)) continue;
          if (matches) {
            claimed.push(pod);
            continue;
          }
          if (deleting(rs)) continue;
          await this.#patchPod(pod, { ownerReferences: [{ $patch: 'delete', uid: uid(rs) }] }, signal, true);
          continue;
        }
        if (deleting(rs) || !matches || deleting(pod)) continue;
        canAdopt ??= this.#recheckDeletion(rs, signal);
        if (!(await canAdopt)) continue;
        const controllerRef = newControllerRef(rs, this.#kind.apiVersion, this.#kind.kind);
        if (await this.#patchPod(pod, { ownerReferences: [{ ...controllerRef }] }, signal, false)) {
          claimed.push(pod);
        }
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw asError(errors[0]);
    return claimed;
  }

  /** RecheckDeletionTimestamp: a fresh read, same uid, not being deleted. */
  async #recheckDeletion(rs: JsonObject, signal: AbortSignal): Promise<boolean> {
    const fresh = await this.#client.request(
      'GET',
      `${this.#kind.collection(namespace(rs))}/${encodeURIComponent(name(rs))}`,
      { signal },
    );
    if (uid(fresh) !== uid(rs)) {
      throw new Error(
        `original ${this.#kind.kind} ${namespace(rs)}/${name(rs)} is gone: got uid ${uid(fresh)}, wanted ${uid(rs)}`,
      );
    }
    if (deleting(fresh)) {
      throw new Error(`${this.#kind.kind} ${namespace(rs)}/${name(rs)} has just been deleted`);
    }
    return true;
  }

  get #client(): RestClient {
    return this.#o.client;
  }

  /** A strategic merge patch of the pod's ownerReferences with a uid precondition. */
  async #patchPod(
    pod: JsonObject,
    metadata: JsonObject,
    signal: AbortSignal,
    release: boolean,
  ): Promise<boolean> {
    try {
      await this.#client.request('PATCH', `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`, {
        body: { metadata: { ...metadata, uid: uid(pod) } },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      // Releasing a pod that has no such reference, or was recreated under another uid.
      if (release && err instanceof ApiError && err.code === 422) return false;
      throw err;
    }
  }

  async #manageReplicas(key: string, rs: JsonObject, pods: JsonObject[], signal: AbortSignal): Promise<void> {
    const replicas = specReplicas(rs);
    let diff = pods.length - replicas;
    if (diff < 0) {
      diff = Math.min(-diff, this.#burst);
      this.#expectations.expectCreations(key, diff);
      const body = this.#podFromTemplate(rs);
      let successes = 0;
      let firstError: unknown;
      let remaining = diff;
      for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining)) {
        const results = await Promise.allSettled(
          Array.from({ length: batch }, () =>
            this.#client.request('POST', podsOf(namespace(rs)), { body, signal }).then(
              (pod) => {
                this.#events.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${name(pod)}`);
                return pod;
              },
              (err: unknown) => {
                if (isNamespaceTerminating(err)) return {};
                this.#events.event(rs, 'Warning', 'FailedCreate', `Error creating: ${errorText(err)}`);
                throw err;
              },
            ),
          ),
        );
        for (const r of results) {
          if (r.status === 'fulfilled') successes++;
          else firstError ??= r.reason;
        }
        if (firstError !== undefined) break;
        remaining -= batch;
      }
      for (let i = successes; i < diff; i++) this.#expectations.creationObserved(key);
      if (firstError !== undefined) throw asError(firstError);
    } else if (diff > 0) {
      diff = Math.min(diff, this.#burst);
      const victims = podsToDelete(pods, this.#relatedPods(rs), diff, this.#clock.now());
      const victimKeys = victims.map((p) => keyFor(namespace(p), name(p)));
      this.#expectations.expectDeletions(key, victimKeys);
      const results = await Promise.allSettled(
        victims.map((p) =>
          this.#client.request('DELETE', `${podsOf(namespace(p))}/${encodeURIComponent(name(p))}`, {
            signal,
          }),
        ),
      );
      let firstError: unknown;
      results.forEach((r, i) => {
        const victim = victims[i]!;
        if (r.status === 'rejected') {
          this.#expectations.deletionObserved(key, victimKeys[i]!);
          if (!isNotFound(r.reason)) {
            firstError ??= r.reason;
            this.#events.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${errorText(r.reason)}`);
          }
        } else {
          this.#events.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name(victim)}`);
        }
      });
      if (firstError !== undefined) throw asError(firstError);
    }
  }

  /**
   * The pods `rs` owns, then the orphans of its namespace that may match its selector: those
   * carrying the rarest of the label pairs the selector requires (all orphans when it requires
   * none). Orphans without that pair cannot match, and the store files keys in the same order in
   * every index, so #claimPods sees the matching orphans in the same order either way.
   */
  #claimCandidates(rs: JsonObject): JsonObject[] {
    const store = this.#podStore;
    if (store === undefined) return [];
    const ns = namespace(rs);
    let index = orphanPodsByNamespace;
    let value = ns;
    let size = store.indexSize(index, value);
    for (const [k, v] of Object.entries(this.#kind.requiredLabels(rs))) {
      const candidate = labelIndexValue(ns, k, v);
      const n = store.indexSize(orphanPodsByLabel, candidate);
      if (n < size) {
        index = orphanPodsByLabel;
        value = candidate;
        size = n;
      }
    }
    return [...store.byIndex(podsByController, uid(rs)), ...store.byIndex(index, value)];
  }

  /** Pods of every workload the same controller (e.g. Deployment) owns: getIndirectlyRelatedPods. */
  #relatedPods(rs: JsonObject): JsonObject[] {
    const owner = controllerOf(rs);
    const siblings =
      owner === undefined
        ? new Set([uid(rs)])
        : new Set(
            (this.#rsIndex?.list(namespace(rs)) ?? [])
              .filter((x) => controllerOf(x)?.uid === owner.uid)
              .map((x) => uid(x)),
          );
    siblings.add(uid(rs));
    const store = this.#podStore;
    return store === undefined ? [] : [...siblings].flatMap((s) => store.byIndex(podsByController, s));
  }

  /** Upstream GetPodFromTemplate. */
  #podFromTemplate(rs: JsonObject): JsonObject {
    const template = obj(obj(rs['spec'])['template']);
    const tmeta = obj(template['metadata']);
    const metadata: JsonObject = {
      generateName: `${name(rs)}-`,
      ownerReferences: [{ ...newControllerRef(rs, this.#kind.apiVersion, this.#kind.kind) }],
    };
    if (isJsonObject(tmeta['labels'])) metadata['labels'] = cloneJson(tmeta['labels']);
    if (isJsonObject(tmeta['annotations'])) metadata['annotations'] = cloneJson(tmeta['annotations']);
    if (Array.isArray(tmeta['finalizers'])) metadata['finalizers'] = cloneJson(tmeta['finalizers']);
    return { apiVersion: 'v1', kind: 'Pod', metadata, spec: cloneJson(obj(template['spec'])) };
  }

  /** Upstream updateReplicaSetStatus: writes /status when anything changed; one retry on conflict. */
  async #updateStatus(rs: JsonObject, status: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    let current = rs;
    for (let attempt = 0; ; attempt++) {
      const old = obj(current['status']);
      const generation = num(meta(current)['generation']);
      const same =
        num(old['replicas']) === num(status['replicas']) &&
        num(old['fullyLabeledReplicas']) === num(status['fullyLabeledReplicas']) &&
        num(old['readyReplicas']) === num(status['readyReplicas']) &&
        num(old['availableReplicas']) === num(status['availableReplicas']) &&
        num(old['observedGeneration']) === generation &&
        jsonEqual(old['conditions'] ?? [], status['conditions'] ?? []);
      if (same) return current;
      const body = { ...current, status: { ...status, observedGeneration: generation } };
      try {
        return await this.#client.request(
          'PUT',
          `${this.#kind.collection(namespace(rs))}/${encodeURIComponent(name(rs))}/status`,
          { body, signal },
        );
      } catch (err) {
        if (attempt >= 1 || !(err instanceof ApiError) || err.code !== 409) throw err;
        current = await this.#client.request(
          'GET',
          `${this.#kind.collection(namespace(rs))}/${encodeURIComponent(name(rs))}`,
          { signal },
        );
      }
    }
  }
}

/** The ReplicationController variant (upstream's ReplicationManager): the same logic on core/v1. */
export class ReplicationControllerManager extends ReplicaSetController {
  constructor(o: ReplicaSetControllerOptions) {
    super(o, replicationControllers);
  }
}

/** Upstream calculateStatus. */
export function calculateStatus(
  rs: JsonObject,
  pods: readonly JsonObject[],
  manageErr: unknown,
  now: number,
): JsonObject {
  const spec = obj(rs['spec']);
  const template = labelSelectorFromSet(labelsOf(obj(obj(spec['template'])['metadata'])['labels']));
  const minReady = num(spec['minReadySeconds']);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const p of pods) {
    if (template.matches(labels(p))) fullyLabeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
  }
  const status = cloneJson(obj(rs['status']));
  let conditions = arr(status['conditions']).filter(isJsonObject);
  const failure = conditions.find((c) => c['type'] === 'ReplicaFailure');
  if (manageErr !== undefined && failure === undefined) {
    const diff = pods.length - specReplicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions = [
      ...conditions,
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: rfc3339(now),
        reason,
        message: errorMessage(manageErr),
      },
    ];
  } else if (manageErr === undefined && failure !== undefined) {
    conditions = conditions.filter((c) => c['type'] !== 'ReplicaFailure');
  }
  const out: JsonObject = { ...status, replicas: pods.length };
  const setOrDrop = (k: string, v: number): void => {
    if (v === 0) delete out[k];
    else out[k] = v;
  };
  setOrDrop('fullyLabeledReplicas', fullyLabeled);
  setOrDrop('readyReplicas', ready);
  setOrDrop('availableReplicas', available);
  if (conditions.length > 0) out['conditions'] = conditions;
  else delete out['conditions'];
  return out;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
