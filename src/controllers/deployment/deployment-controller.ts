/**
 * The Deployment controller (upstream v1.27 pkg/controller/deployment): owns ReplicaSets named
 * `<deployment>-<pod-template-hash>` (the hash as upstream's ComputeHash, also on the ReplicaSet's
 * selector, template and so its pods), rolls out with RollingUpdate (maxSurge/maxUnavailable) or
 * Recreate, scales proportionally when the Deployment is resized mid-rollout, keeps
 * `revisionHistoryLimit` old ReplicaSets, honours `paused`, rolls back through the
 * `deprecated.deployment.rollback.to` annotation, and reports status with the Available and
 * Progressing conditions (reasons and messages as upstream, which `kubectl rollout status` reads).
 * `kubectl rollout undo` (v1.27 patches the template client-side) and `rollout restart` (a
 * template annotation) are ordinary template changes to it.
 */
import type { ControllerEvents } from '../util/events.js';
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { DelayedAdds, realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { computeHash } from '../util/hash.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  annotations,
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
  timeOf,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import {
  activeReplicaSets,
  actualReplicaCount,
  availableReplicaCount,
  byCreation,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  cleanable,
  condition,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  desiredReplicasOf,
  equalIgnoreHash,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  hasProgressDeadline,
  isPaused,
  isRecreate,
  isSaturated,
  maxRevision,
  maxSurge,
  maxUnavailable,
  newCondition,
  newRSNewReplicas,
  podTemplateHashLabel,
  progressDeadlineSeconds,
  proportion,
  readyReplicaCount,
  reasons,
  removeCondition,
  replicasAnnotationsNeedUpdate,
  replicasOf,
  revisionHistoryLimit,
  revisionOf,
  rollbackToAnnotation,
  setCondition,
  setDeploymentAnnotationsTo,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  specReplicaCount,
  statusOf,
  templateOf,
} from './util.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { metav1SelectorOf, ownersSelecting, resolveControllerRef } from '../util/controller-ref.js';

export interface DeploymentControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Deployments synced in parallel (upstream --concurrent-deployment-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
  /** Where ScalingReplicaSet events go (default: none). */
  readonly events?: ControllerEvents;
}

const deploymentsPath = '/apis/apps/v1/deployments';
const replicaSetsPath = '/apis/apps/v1/replicasets';
const podsPath = '/api/v1/pods';
const dPath = (ns: string, n?: string): string =>
  `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/deployments${n !== undefined ? `/${encodeURIComponent(n)}` : ''}`;
const rsPath = (ns: string, n?: string): string =>
  `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/replicasets${n !== undefined ? `/${encodeURIComponent(n)}` : ''}`;

function isCode(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

function selectorOf(d: JsonObject): ReturnType<typeof asSelector> {
  return asSelector(obj(obj(d['spec'])['selector']));
}

/** ReplicaSetToDeploymentCondition. */
function fromReplicaSetCondition(c: JsonObject): JsonObject {
  return {
    type: str(c['type']),
    status: str(c['status']),
    lastUpdateTime: c['lastTransitionTime'] ?? null,
    lastTransitionTime: c['lastTransitionTime'] ?? null,
    reason: str(c['reason']),
    message: str(c['message']),
  };
}

export class DeploymentController {
  readonly #o: DeploymentControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  #dInformer: SharedInformer | undefined;
  #rsInformer: SharedInformer | undefined;
  #dIndex: NamespaceIndex | undefined;
  #rsIndex: NamespaceIndex | undefined;
  #podIndex: NamespaceIndex | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: DeploymentControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#queue = controllerQueue('deployment', o.onError, this.#clock);
  }

  get #client(): RestClient {
    return this.#o.client;
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const dInformer = this.#o.informers.informerFor(deploymentsPath);
    const rsInformer = this.#o.informers.informerFor(replicaSetsPath);
    const podInformer = this.#o.informers.informerFor(podsPath);
    this.#dInformer = dInformer;
    this.#rsInformer = rsInformer;
    this.#dIndex = new NamespaceIndex(dInformer);
    this.#rsIndex = new NamespaceIndex(rsInformer);
    this.#podIndex = new NamespaceIndex(podInformer);
    for (const i of [this.#dIndex, this.#rsIndex, this.#podIndex]) i.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const regs = [
      dInformer.addEventHandler({
        onAdd: (d) => this.#enqueue(d),
        onUpdate: (_old, d) => this.#enqueue(d),
        onDelete: (d) => this.#enqueue(d),
      }),
      rsInformer.addEventHandler({
        onAdd: (rs) => this.#rsChanged(undefined, rs),
        onUpdate: (old, rs) => this.#rsChanged(old, rs),
        onDelete: (rs) => {
          const d = this.#owner(rs);
          if (d !== undefined) this.#enqueue(d);
        },
      }),
      podInformer.addEventHandler({ onDelete: (pod) => this.#podDeleted(pod) }),
    ];
    try {
      if (!(await informersSynced([dInformer, rsInformer, podInformer], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#sync(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
      for (const i of [this.#dIndex, this.#rsIndex, this.#podIndex]) i.stop();
      delayed.cancelAll();
    }
  }

  #enqueue(d: JsonObject): void {
    this.#queue.add(keyFor(namespace(d), name(d)));
  }

  /** The Deployment an object's controller reference names, if it is in the store. */
  #resolve(ns: string, ref: OwnerRef | undefined): JsonObject | undefined {
    return resolveControllerRef(this.#dInformer, 'Deployment', ns, ref);
  }

  #owner(rs: JsonObject): JsonObject | undefined {
    return this.#resolve(namespace(rs), controllerOf(rs));
  }

  /** Deployments whose selector matches an orphan ReplicaSet. */
  #matching(rs: JsonObject): JsonObject[] {
    return ownersSelecting(this.#dIndex?.list(namespace(rs)) ?? [], rs, metav1SelectorOf);
  }

  #rsChanged(old: JsonObject | undefined, rs: JsonObject): void {
    if (old !== undefined && str(meta(old)['resourceVersion']) === str(meta(rs)['resourceVersion'])) return;
    const oldRef = old !== undefined ? controllerOf(old) : undefined;
    const ref = controllerOf(rs);
    if (oldRef !== undefined && oldRef.uid !== ref?.uid) {
      const d = this.#resolve(namespace(rs), oldRef);
      if (d !== undefined) this.#enqueue(d);
    }
    if (ref !== undefined) {
      const d = this.#resolve(namespace(rs), ref);
      if (d !== undefined) this.#enqueue(d);
      return;
    }
    const labelsChanged =
      old === undefined || !jsonEqual(meta(old)['labels'] ?? {}, meta(rs)['labels'] ?? {});
    if (labelsChanged || oldRef !== undefined) for (const d of this.#matching(rs)) this.#enqueue(d);
  }

  /** A Recreate Deployment waits for its old pods to be gone. */
  #podDeleted(pod: JsonObject): void {
    const ref = controllerOf(pod);
    if (ref?.kind !== 'ReplicaSet') return;
    const rs = this.#rsInformer?.store.get(keyFor(namespace(pod), ref.name));
    if (rs === undefined || uid(rs) !== ref.uid) return;
    const d = this.#owner(rs);
    if (d !== undefined && isRecreate(d)) this.#enqueue(d);
  }

  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    const cached = this.#dInformer?.store.get(key);
    if (cached === undefined) return undefined;
    const d = cloneJson(cached);
    const sel = obj(d['spec'])['selector'];
    if (isJsonObject(sel) && jsonEqual(sel, {})) {
      // Selecting all pods: refused, as upstream (after recording the generation).
      if (num(statusOf(d)['observedGeneration']) < num(meta(d)['generation'])) {
        d['status'] = { ...statusOf(d), observedGeneration: num(meta(d)['generation']) };
        await this.#updateStatus(d, signal);
      }
      return undefined;
    }
    const rsList = await this.#replicaSetsFor(d, signal);
    if (deleting(d)) {
      await this.#syncStatusOnly(d, rsList, signal);
      return undefined;
    }
    await this.#checkPausedConditions(d, signal);
    if (isPaused(d)) {
      await this.#syncScale(d, rsList, signal);
      return undefined;
    }
    if (annotations(d)[rollbackToAnnotation] !== undefined) {
      await this.#rollback(d, rsList, signal);
      return undefined;
    }
    if (await this.#isScalingEvent(d, rsList, signal)) {
      await this.#syncScale(d, rsList, signal);
      return undefined;
    }
    if (isRecreate(d)) await this.#rolloutRecreate(d, rsList, signal);
    else await this.#rolloutRolling(d, rsList, signal);
    return undefined;
  }

  // ---- ReplicaSets of a Deployment (ClaimReplicaSets) ----

  async #replicaSetsFor(d: JsonObject, signal: AbortSignal): Promise<JsonObject[]> {
    const sel = selectorOf(d);
    if (!sel.ok) throw new Error(`deployment ${namespace(d)}/${name(d)} has an invalid label selector`);
    const claimed: JsonObject[] = [];
    let canAdopt: Promise<void> | undefined;
    const errors: unknown[] = [];
    for (const rs of this.#rsIndex?.list(namespace(d)) ?? []) {
      const ref = controllerOf(rs);
      const matches = sel.matches(labels(rs));
      try {
        if (ref !== undefined) {
          if (ref.uid !== uid(d)) continue;
          if (matches) {
            claimed.push(cloneJson(rs));
            continue;
          }
          if (deleting(d)) continue;
          await this.#patchRS(rs, { ownerReferences: [{ $patch: 'delete', uid: uid(d) }] }, signal, true);
          continue;
        }
        if (deleting(d) || !matches || deleting(rs)) continue;
        canAdopt ??= this.#recheckDeletion(d, signal);
        await canAdopt;
        const adopted = await this.#patchRS(
          rs,
          { ownerReferences: [{ ...newControllerRef(d, 'apps/v1', 'Deployment') }] },
          signal,
          false,
        );
        if (adopted !== undefined) claimed.push(adopted);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw asError(errors[0]);
    return claimed;
  }

  async #recheckDeletion(d: JsonObject, signal: AbortSignal): Promise<void> {
    const fresh = await this.#client.request('GET', dPath(namespace(d), name(d)), { signal });
    if (uid(fresh) !== uid(d)) {
      throw new Error(
        `original Deployment ${namespace(d)}/${name(d)} is gone: got uid ${uid(fresh)}, wanted ${uid(d)}`,
      );
    }
    if (deleting(fresh))
      throw new Error(
        `${namespace(d)}/${name(d)} has just been deleted at ${str(meta(fresh)['deletionTimestamp'])}`,
      );
  }

  async #patchRS(
    rs: JsonObject,
    metadata: JsonObject,
    signal: AbortSignal,
    release: boolean,
  ): Promise<JsonObject | undefined> {
    try {
      return await this.#client.request('PATCH', rsPath(namespace(rs), name(rs)), {
        body: { metadata: { ...metadata, uid: uid(rs) } },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
    } catch (err) {
      if (isCode(err, 404)) return undefined;
      if (release && isCode(err, 422)) return undefined;
      throw err;
    }
  }

  /** getPodMapForDeployment: the Deployment's pods by the uid of their ReplicaSet. */
  #podMap(d: JsonObject, rsList: readonly JsonObject[]): Map<string, JsonObject[]> {
    const map = new Map<string, JsonObject[]>();
    for (const rs of rsList) map.set(uid(rs), []);
    const sel = selectorOf(d);
    if (!sel.ok) return map;
    for (const pod of this.#podIndex?.list(namespace(d)) ?? []) {
      if (!sel.matches(labels(pod))) continue;
      const ref = controllerOf(pod);
      if (ref === undefined) continue;
      map.get(ref.uid)?.push(pod);
    }
    return map;
  }

  // ---- the new ReplicaSet ----

  async #allReplicaSetsAndSyncRevision(
    d: JsonObject,
    rsList: readonly JsonObject[],
    create: boolean,
    signal: AbortSignal,
  ): Promise<{ newRS: JsonObject | undefined; oldRSs: JsonObject[] }> {
    const oldRSs = findOldReplicaSets(d, rsList);
    const newRS = await this.#newReplicaSet(d, rsList, oldRSs, create, signal);
    return { newRS, oldRSs };
  }

  async #newReplicaSet(
    d: JsonObject,
    rsList: readonly JsonObject[],
    oldRSs: readonly JsonObject[],
    create: boolean,
    signal: AbortSignal,
  ): Promise<JsonObject | undefined> {
    const existing = findNewReplicaSet(d, rsList);
    const newRevision = String(maxRevision(oldRSs) + 1n);
    const now = this.#clock.now();
    if (existing !== undefined) {
      const rsCopy = cloneJson(existing);
      const annotationsUpdated = setNewReplicaSetAnnotations(d, rsCopy, newRevision, true);
      const minReady = num(obj(d['spec'])['minReadySeconds']);
      if (annotationsUpdated || num(obj(rsCopy['spec'])['minReadySeconds']) !== minReady) {
        obj(rsCopy['spec'])['minReadySeconds'] = minReady;
        return this.#client.request('PUT', rsPath(namespace(rsCopy), name(rsCopy)), { body: rsCopy, signal });
      }
      let needsUpdate = setDeploymentRevision(
        d,
        str(annotations(rsCopy)['deployment.kubernetes.io/revision']),
      );
      if (hasProgressDeadline(d) && condition(statusOf(d), 'Progressing') === undefined) {
        const status = this.#status(d);
        setCondition(
          status,
          newCondition(
            'Progressing',
            'True',
            reasons.foundNewRS,
            `Found new replica set "${name(rsCopy)}"`,
            now,
          ),
        );
        needsUpdate = true;
      }
      if (needsUpdate) await this.#updateStatus(d, signal);
      return rsCopy;
    }
    if (!create) return undefined;

    const template = cloneJson(templateOf(d));
    const collisionCount = statusOf(d)['collisionCount'];
    const hash = computeHash(template, typeof collisionCount === 'number' ? collisionCount : undefined);
    const tmeta = obj(template['metadata']);
    tmeta['labels'] = { ...obj(tmeta['labels']), [podTemplateHashLabel]: hash };
    template['metadata'] = tmeta;
    const selector = cloneJson(obj(obj(d['spec'])['selector']));
    selector['matchLabels'] = { ...obj(selector['matchLabels']), [podTemplateHashLabel]: hash };
    const newRS: JsonObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${name(d)}-${hash}`,
        namespace: namespace(d),
        ownerReferences: [{ ...newControllerRef(d, 'apps/v1', 'Deployment') }],
        labels: cloneJson(obj(tmeta['labels'])),
      },
      spec: {
        replicas: 0,
        minReadySeconds: num(obj(d['spec'])['minReadySeconds']),
        selector,
        template,
      },
    };
    const newReplicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    obj(newRS['spec'])['replicas'] = newReplicas;
    setNewReplicaSetAnnotations(d, newRS, newRevision, false);
    let created: JsonObject;
    let alreadyExists = false;
    try {
      created = await this.#client.request('POST', rsPath(namespace(d)), { body: newRS, signal });
    } catch (err) {
      if (isCode(err, 409) && err instanceof ApiError && err.reason === 'AlreadyExists') {
        alreadyExists = true;
        const rs = await this.#client.request('GET', rsPath(namespace(d), name(newRS)), { signal });
        const ref = controllerOf(rs);
        if (ref !== undefined && ref.uid === uid(d) && equalIgnoreHash(templateOf(d), templateOf(rs))) {
          created = rs;
        } else {
          // A hash collision: bump collisionCount and try again with the next sync.
          const status = this.#status(d);
          status['collisionCount'] = (typeof collisionCount === 'number' ? collisionCount : 0) + 1;
          await this.#updateStatus(d, signal).catch(() => undefined);
          throw err;
        }
      } else {
        const isTerminating =
          err instanceof ApiError &&
          arr(obj(err.status?.['details'])['causes']).some(
            (c) => isJsonObject(c) && c['type'] === 'NamespaceTerminating',
          );
        if (!isTerminating && hasProgressDeadline(d)) {
          const msg = `Failed to create new replica set "${name(newRS)}": ${errorMessage(err)}`;
          setCondition(
            this.#status(d),
            newCondition('Progressing', 'False', reasons.failedRSCreate, msg, now),
          );
          await this.#updateStatus(d, signal).catch(() => undefined);
        }
        throw err;
      }
    }
    if (!alreadyExists && newReplicas > 0) {
      this.#o.events?.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${name(created)} to ${newReplicas}`,
      );
    }
    let needsUpdate = setDeploymentRevision(d, newRevision);
    if (!alreadyExists && hasProgressDeadline(d)) {
      setCondition(
        this.#status(d),
        newCondition(
          'Progressing',
          'True',
          reasons.newReplicaSet,
          `Created new replica set "${name(created)}"`,
          now,
        ),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await this.#updateStatus(d, signal);
    return created;
  }

  /** The Deployment's status object (created when absent), to mutate. */
  #status(d: JsonObject): JsonObject {
    if (!isJsonObject(d['status'])) d['status'] = {};
    return d['status'];
  }

  /** UpdateStatus; `d` takes the stored result (its resourceVersion) so later writes do not conflict. */
  async #updateStatus(d: JsonObject, signal: AbortSignal): Promise<void> {
    const stored = await this.#client.request('PUT', `${dPath(namespace(d), name(d))}/status`, {
      body: d,
      signal,
    });
    meta(d)['resourceVersion'] = str(meta(stored)['resourceVersion']);
  }

  // ---- scaling ----

  async #scaleReplicaSet(
    d: JsonObject,
    rs: JsonObject,
    newScale: number,
    signal: AbortSignal,
  ): Promise<{ scaled: boolean; rs: JsonObject }> {
    const replicas = replicasOf(d);
    const max = replicas + maxSurge(d);
    const sizeNeedsUpdate = replicasOf(rs) !== newScale;
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicas, max)) return { scaled: false, rs };
    const copy = cloneJson(rs);
    obj(copy['spec'])['replicas'] = newScale;
    setReplicasAnnotations(copy, replicas, max);
    const updated = await this.#client.request('PUT', rsPath(namespace(copy), name(copy)), {
      body: copy,
      signal,
    });
    if (sizeNeedsUpdate) {
      const old = replicasOf(rs);
      const op = old < newScale ? 'up' : 'down';
      this.#o.events?.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${op} replica set ${name(rs)} to ${newScale} from ${old}`,
      );
    }
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  async #scaleAndRecord(
    d: JsonObject,
    rs: JsonObject,
    newScale: number,
    signal: AbortSignal,
  ): Promise<{ scaled: boolean; rs: JsonObject }> {
    if (replicasOf(rs) === newScale) return { scaled: false, rs };
    return this.#scaleReplicaSet(d, rs, newScale, signal);
  }

  async #scale(
    d: JsonObject,
    newRS: JsonObject | undefined,
    oldRSs: JsonObject[],
    signal: AbortSignal,
  ): Promise<void> {
    const replicas = replicasOf(d);
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest !== undefined) {
      if (replicasOf(activeOrLatest) === replicas) return;
      await this.#scaleAndRecord(d, activeOrLatest, replicas, signal);
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of activeReplicaSets(oldRSs)) await this.#scaleAndRecord(d, old, 0, signal);
      return;
    }
    if (isRecreate(d)) return;
    const all = activeReplicaSets(newRS !== undefined ? [...oldRSs, newRS] : oldRSs);
    const allowed = replicas > 0 ? replicas + maxSurge(d) : 0;
    const toAdd = allowed - specReplicaCount(all);
    if (toAdd > 0) all.sort(bySizeNewer);
    else if (toAdd < 0) all.sort(bySizeOlder);
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of all) {
      if (toAdd !== 0) {
        const p = proportion(rs, d, toAdd, added);
        sizes.set(name(rs), replicasOf(rs) + p);
        added += p;
      } else {
        sizes.set(name(rs), replicasOf(rs));
      }
    }
    for (const [i, rs] of all.entries()) {
      if (i === 0 && toAdd !== 0)
        sizes.set(name(rs), Math.max(0, (sizes.get(name(rs)) ?? 0) + toAdd - added));
      await this.#scaleReplicaSet(d, rs, sizes.get(name(rs)) ?? 0, signal);
    }
  }

  /** Upstream sync: scaling and (when paused) history cleanup, then status. */
  async #syncScale(d: JsonObject, rsList: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, false, signal);
    await this.#scale(d, newRS, oldRSs, signal);
    if (isPaused(d) && annotations(d)[rollbackToAnnotation] === undefined)
      await this.#cleanup(d, oldRSs, signal);
    await this.#syncDeploymentStatus(d, newRS !== undefined ? [...oldRSs, newRS] : oldRSs, newRS, signal);
  }

  async #syncStatusOnly(d: JsonObject, rsList: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, false, signal);
    await this.#syncDeploymentStatus(d, newRS !== undefined ? [...oldRSs, newRS] : oldRSs, newRS, signal);
  }

  async #isScalingEvent(d: JsonObject, rsList: readonly JsonObject[], signal: AbortSignal): Promise<boolean> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, false, signal);
    for (const rs of activeReplicaSets(newRS !== undefined ? [...oldRSs, newRS] : oldRSs)) {
      const desired = desiredReplicasOf(rs);
      if (desired !== undefined && desired !== replicasOf(d)) return true;
    }
    return false;
  }

  async #checkPausedConditions(d: JsonObject, signal: AbortSignal): Promise<void> {
    if (!hasProgressDeadline(d)) return;
    const c = condition(statusOf(d), 'Progressing');
    if (c?.['reason'] === reasons.timedOut) return;
    const pausedExists = c?.['reason'] === reasons.paused;
    const now = this.#clock.now();
    if (isPaused(d) && !pausedExists) {
      setCondition(
        this.#status(d),
        newCondition('Progressing', 'Unknown', reasons.paused, 'Deployment is paused', now),
      );
    } else if (!isPaused(d) && pausedExists) {
      setCondition(
        this.#status(d),
        newCondition('Progressing', 'Unknown', reasons.resumed, 'Deployment is resumed', now),
      );
    } else {
      return;
    }
    await this.#updateStatus(d, signal);
  }

  /** cleanupDeployment: delete the oldest idle ReplicaSets beyond revisionHistoryLimit. */
  async #cleanup(d: JsonObject, oldRSs: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const limit = revisionHistoryLimit(d);
    if (limit === undefined) return;
    const alive = oldRSs.filter((rs) => !deleting(rs));
    const diff = alive.length - limit;
    if (diff <= 0) return;
    alive.sort(byRevision);
    for (const rs of alive.slice(0, diff)) {
      if (!cleanable(rs)) continue;
      try {
        await this.#client.request('DELETE', rsPath(namespace(rs), name(rs)), { signal });
      } catch (err) {
        if (!isCode(err, 404)) throw err;
      }
    }
  }

  // ---- status ----

  /** Upstream calculateStatus. */
  #calculateStatus(d: JsonObject, all: readonly JsonObject[], newRS: JsonObject | undefined): JsonObject {
    const available = availableReplicaCount(all);
    const unavailable = Math.max(0, specReplicaCount(all) - available);
    const old = statusOf(d);
    const status: JsonObject = {
      observedGeneration: num(meta(d)['generation']),
      replicas: actualReplicaCount(all),
      updatedReplicas: newRS !== undefined ? actualReplicaCount([newRS]) : 0,
      readyReplicas: readyReplicaCount(all),
      availableReplicas: available,
      unavailableReplicas: unavailable,
    };
    // As Go writes DeploymentStatus: zero counts are omitted (omitempty).
    for (const k of Object.keys(status)) if (status[k] === 0) delete status[k];
    if (typeof old['collisionCount'] === 'number') status['collisionCount'] = old['collisionCount'];
    const conditions = arr(old['conditions'])
      .filter(isJsonObject)
      .map((c) => ({ ...c }));
    if (conditions.length > 0) status['conditions'] = conditions;
    const now = this.#clock.now();
    if (available >= replicasOf(d) - maxUnavailable(d)) {
      setCondition(
        status,
        newCondition(
          'Available',
          'True',
          reasons.minimumReplicasAvailable,
          'Deployment has minimum availability.',
          now,
        ),
      );
    } else {
      setCondition(
        status,
        newCondition(
          'Available',
          'False',
          reasons.minimumReplicasUnavailable,
          'Deployment does not have minimum availability.',
          now,
        ),
      );
    }
    return status;
  }

  async #syncDeploymentStatus(
    d: JsonObject,
    all: readonly JsonObject[],
    newRS: JsonObject | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const status = this.#calculateStatus(d, all, newRS);
    if (statusEqual(statusOf(d), status)) return;
    d['status'] = status;
    await this.#updateStatus(d, signal);
  }

  /** Upstream syncRolloutStatus (progress.go). */
  async #syncRolloutStatus(
    d: JsonObject,
    all: readonly JsonObject[],
    newRS: JsonObject | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const status = this.#calculateStatus(d, all, newRS);
    if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
    const current = condition(statusOf(d), 'Progressing');
    const complete =
      num(status['replicas']) === num(status['updatedReplicas']) &&
      current?.['reason'] === reasons.newRSAvailable;
    const now = this.#clock.now();
    if (hasProgressDeadline(d) && !complete) {
      if (deploymentComplete(d, status)) {
        const msg =
          newRS !== undefined
            ? `ReplicaSet "${name(newRS)}" has successfully progressed.`
            : `Deployment "${name(d)}" has successfully progressed.`;
        setCondition(status, newCondition('Progressing', 'True', reasons.newRSAvailable, msg, now));
      } else if (deploymentProgressing(d, status)) {
        const msg =
          newRS !== undefined
            ? `ReplicaSet "${name(newRS)}" is progressing.`
            : `Deployment "${name(d)}" is progressing.`;
        const c = newCondition('Progressing', 'True', reasons.replicaSetUpdated, msg, now);
        if (current !== undefined) {
          if (current['status'] === 'True') c['lastTransitionTime'] = current['lastTransitionTime'] ?? null;
          removeCondition(status, 'Progressing');
        }
        setCondition(status, c);
      } else if (deploymentTimedOut(d, status, now)) {
        const msg =
          newRS !== undefined
            ? `ReplicaSet "${name(newRS)}" has timed out progressing.`
            : `Deployment "${name(d)}" has timed out progressing.`;
        setCondition(status, newCondition('Progressing', 'False', reasons.timedOut, msg, now));
      }
    }
    const failures = replicaFailures(all, newRS);
    if (failures !== undefined) setCondition(status, failures);
    else removeCondition(status, 'ReplicaFailure');
    if (statusEqual(statusOf(d), status)) {
      this.#requeueStuck(d, status);
      return;
    }
    d['status'] = status;
    await this.#updateStatus(d, signal);
  }

  /** requeueStuckDeployment: come back when the progress deadline would pass. */
  #requeueStuck(d: JsonObject, status: JsonObject): void {
    const current = condition(statusOf(d), 'Progressing');
    if (!hasProgressDeadline(d) || current === undefined) return;
    if (deploymentComplete(d, status) || current['reason'] === reasons.timedOut) return;
    const last = timeOf(current['lastUpdateTime']) ?? 0;
    const after = last + progressDeadlineSeconds(d) * 1000 - this.#clock.now();
    this.#delayed?.addAfter(keyFor(namespace(d), name(d)), after < 1000 ? 1000 : after + 1000);
  }

  // ---- strategies ----

  async #rolloutRolling(d: JsonObject, rsList: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, true, signal);
    if (newRS === undefined) return;
    const all = [...oldRSs, newRS];
    // Scale up, if we can.
    if (await this.#reconcileNewReplicaSet(d, all, newRS, signal)) {
      await this.#syncRolloutStatus(d, all, newRS, signal);
      return;
    }
    // Scale down, if we can.
    if (await this.#reconcileOldReplicaSets(d, all, activeReplicaSets(oldRSs), newRS, signal)) {
      await this.#syncRolloutStatus(d, all, newRS, signal);
      return;
    }
    if (deploymentComplete(d, statusOf(d))) await this.#cleanup(d, oldRSs, signal);
    await this.#syncRolloutStatus(d, all, newRS, signal);
  }

  async #reconcileNewReplicaSet(
    d: JsonObject,
    all: readonly JsonObject[],
    newRS: JsonObject,
    signal: AbortSignal,
  ): Promise<boolean> {
    const replicas = replicasOf(d);
    if (replicasOf(newRS) === replicas) return false;
    if (replicasOf(newRS) > replicas) return (await this.#scaleAndRecord(d, newRS, replicas, signal)).scaled;
    const count = newRSNewReplicas(d, all, newRS);
    return (await this.#scaleAndRecord(d, newRS, count, signal)).scaled;
  }

  async #reconcileOldReplicaSets(
    d: JsonObject,
    all: readonly JsonObject[],
    oldRSs: JsonObject[],
    newRS: JsonObject,
    signal: AbortSignal,
  ): Promise<boolean> {
    if (specReplicaCount(oldRSs) === 0) return false;
    const allPods = specReplicaCount(all);
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const newUnavailable = replicasOf(newRS) - num(statusOf(newRS)['availableReplicas']);
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let cleaned: { oldRSs: JsonObject[]; count: number };
    let scaledDown: number;
    try {
      cleaned = await this.#cleanupUnhealthyReplicas(d, oldRSs, maxScaledDown, signal);
      scaledDown = await this.#scaleDownOldForRollingUpdate(
        d,
        [...cleaned.oldRSs, newRS],
        cleaned.oldRSs,
        signal,
      );
    } catch (err) {
      if (signal.aborted) throw err;
      return false;
    }
    return cleaned.count + scaledDown > 0;
  }

  async #cleanupUnhealthyReplicas(
    d: JsonObject,
    oldRSs: JsonObject[],
    maxCleanup: number,
    signal: AbortSignal,
  ): Promise<{ oldRSs: JsonObject[]; count: number }> {
    const sorted = [...oldRSs].sort(byCreation);
    let total = 0;
    for (const [i, rs] of sorted.entries()) {
      if (total >= maxCleanup) break;
      const replicas = replicasOf(rs);
      const available = availableNow(rs);
      if (replicas === 0 || replicas === available) continue;
      const down = Math.min(maxCleanup - total, replicas - available);
      if (down < 0) {
        throw new Error(
          `when cleaning up unhealthy replicas, got invalid request to scale down ${namespace(rs)}/${name(rs)} ${replicas} -> ${replicas - down}`,
        );
      }
      const { rs: updated } = await this.#scaleAndRecord(d, rs, replicas - down, signal);
      total += down;
      sorted[i] = updated;
    }
    return { oldRSs: sorted, count: total };
  }

  async #scaleDownOldForRollingUpdate(
    d: JsonObject,
    all: readonly JsonObject[],
    oldRSs: JsonObject[],
    signal: AbortSignal,
  ): Promise<number> {
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const availablePods = all.reduce((n, rs) => n + availableNow(rs), 0);
    if (availablePods <= minAvailable) return 0;
    const sorted = [...oldRSs].sort(byCreation);
    const target = availablePods - minAvailable;
    let total = 0;
    for (const rs of sorted) {
      if (total >= target) break;
      const replicas = replicasOf(rs);
      if (replicas === 0) continue;
      const down = Math.min(replicas, target - total);
      await this.#scaleAndRecord(d, rs, replicas - down, signal);
      total += down;
    }
    return total;
  }

  async #rolloutRecreate(d: JsonObject, rsList: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    let { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, false, signal);
    let all = newRS !== undefined ? [...oldRSs, newRS] : [...oldRSs];
    // Scale down old ReplicaSets first.
    let scaled = false;
    for (const rs of activeReplicaSets(oldRSs)) {
      if ((await this.#scaleAndRecord(d, rs, 0, signal)).scaled) scaled = true;
    }
    if (scaled) {
      await this.#syncRolloutStatus(d, all, newRS, signal);
      return;
    }
    // Wait until no old pod runs.
    if (this.#oldPodsRunning(newRS, oldRSs, this.#podMap(d, rsList))) {
      await this.#syncRolloutStatus(d, all, newRS, signal);
      return;
    }
    if (newRS === undefined) {
      ({ newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, true, signal));
      all = newRS !== undefined ? [...oldRSs, newRS] : [...oldRSs];
    }
    if (newRS !== undefined) await this.#scaleAndRecord(d, newRS, replicasOf(d), signal);
    if (deploymentComplete(d, statusOf(d))) await this.#cleanup(d, oldRSs, signal);
    await this.#syncRolloutStatus(d, all, newRS, signal);
  }

  #oldPodsRunning(
    newRS: JsonObject | undefined,
    oldRSs: readonly JsonObject[],
    podMap: Map<string, JsonObject[]>,
  ): boolean {
    if (actualReplicaCount(oldRSs) > 0) return true;
    for (const [rsUid, pods] of podMap) {
      if (newRS !== undefined && uid(newRS) === rsUid) continue;
      for (const pod of pods) {
        const phase = str(obj(pod['status'])['phase']);
        if (phase !== 'Failed' && phase !== 'Succeeded') return true;
      }
    }
    return false;
  }

  // ---- rollback (the deprecated rollback-to annotation) ----

  async #rollback(d: JsonObject, rsList: readonly JsonObject[], signal: AbortSignal): Promise<void> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(d, rsList, true, signal);
    const all = newRS !== undefined ? [...oldRSs, newRS] : oldRSs;
    const wanted = annotations(d)[rollbackToAnnotation] ?? '0';
    let target = /^[+-]?\d+$/.test(wanted) ? BigInt(wanted) : 0n;
    if (target === 0n) {
      // Roll back to the last revision.
      const revisions = all.map((rs) => revisionOf(rs) ?? 0n).sort((a, b) => (b > a ? 1 : b < a ? -1 : 0));
      target = revisions[1] ?? 0n;
      if (target === 0n) {
        await this.#clearRollbackTo(d, signal);
        return;
      }
    }
    for (const rs of all) {
      if (revisionOf(rs) !== target) continue;
      if (!equalIgnoreHash(templateOf(d), templateOf(rs))) {
        const template = cloneJson(templateOf(rs));
        const tmeta = obj(template['metadata']);
        const l = { ...obj(tmeta['labels']) };
        delete l[podTemplateHashLabel];
        tmeta['labels'] = l;
        template['metadata'] = tmeta;
        obj(d['spec'])['template'] = template;
        setDeploymentAnnotationsTo(d, rs);
      }
      await this.#clearRollbackTo(d, signal);
      return;
    }
    await this.#clearRollbackTo(d, signal);
  }

  async #clearRollbackTo(d: JsonObject, signal: AbortSignal): Promise<void> {
    const a = obj(meta(d)['annotations']);
    delete a[rollbackToAnnotation];
    await this.#client.request('PUT', dPath(namespace(d), name(d)), { body: d, signal });
  }
}

/**
 * A ReplicaSet's available replicas for scale-down decisions: its status, but never more than its
 * spec. Right after a scale-down the ReplicaSet's status still counts the pods it is deleting
 * (upstream computes it from the pods listed before the deletions), and upstream, which reads the
 * status alone, can then scale old ReplicaSets down further than maxUnavailable allows for a
 * moment.
 */
function availableNow(rs: JsonObject): number {
  return Math.min(num(statusOf(rs)['availableReplicas']), replicasOf(rs));
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure condition first, else an old one's. */
function replicaFailures(all: readonly JsonObject[], newRS: JsonObject | undefined): JsonObject | undefined {
  const failure = (rs: JsonObject): JsonObject | undefined => {
    const c = condition(statusOf(rs), 'ReplicaFailure');
    return c !== undefined ? fromReplicaSetCondition(c) : undefined;
  };
  if (newRS !== undefined) {
    const f = failure(newRS);
    if (f !== undefined) return f;
  }
  for (const rs of all) {
    const f = failure(rs);
    if (f !== undefined) return f;
  }
  return undefined;
}

/** reflect.DeepEqual of two statuses as Go structs (zero counts equal absent ones). */
function statusEqual(a: JsonObject, b: JsonObject): boolean {
  const counts = [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
  ];
  for (const k of counts) if (num(a[k]) !== num(b[k])) return false;
  if ((a['collisionCount'] ?? null) !== (b['collisionCount'] ?? null)) return false;
  return jsonEqual(arr(a['conditions']), arr(b['conditions']));
}
