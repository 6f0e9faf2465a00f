/**
 * The Job controller (upstream v1.27 pkg/controller/job): runs a Job's pods to completion.
 *
 * Pods are made from the template with a controller ownerReference and the
 * `batch.kubernetes.io/job-tracking` finalizer; a finished pod is first recorded in
 * `status.uncountedTerminatedPods` (or, Indexed, in `completedIndexes`), then its finalizer is
 * removed, then it is moved into `succeeded`/`failed` — so no pod is counted twice or lost even if
 * the pod is deleted meanwhile. NonIndexed and Indexed completion modes (completion index
 * annotation, `<job>-<index>` hostname, JOB_COMPLETION_INDEX), parallelism and completions,
 * backoffLimit (pod failures, and container restarts under restartPolicy OnFailure) with the pod
 * backoff of 10 s doubling to 6 min, activeDeadlineSeconds, suspend/resume (Suspended condition,
 * StartTime reset), the pod failure policy (FailJob through the FailureTarget condition, Ignore,
 * Count), `ready`, and the Complete/Failed conditions with upstream's reasons and events. Pods
 * still carrying the finalizer without a live Job are released by the orphan path.
 */
import { hostname } from 'node:os';
import { ApiError, hasStatusCause } from '../../client/api-error.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import { asSelector } from '../../machinery/labels/metav1.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { DelayedAdds, realClock, rfc3339 } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { ControllerExpectations } from '../util/expectations.js';
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
  timeOf,
  uid,
} from '../util/objects.js';
import type { OwnerRef } from '../util/objects.js';
import { comparePodsForDeletion, isPodActive, isPodReady, podPhase } from '../util/pods.js';
import {
  backoffRemaining,
  completionIndex,
  completionIndexAnnotation,
  completionIndexEnv,
  ensureCondition,
  findCondition,
  firstPendingIndexes,
  formatIndexes,
  generateNameWithIndex,
  hasTrackingFinalizer,
  isIndexedJob,
  isJobFinished,
  isPodFailed,
  jobTrackingFinalizer,
  matchPodFailurePolicy,
  newCondition,
  nextBackoffRecord,
  noBackoff,
  parseIndexes,
  podFailurePolicy,
} from './job-util.js';
import type { BackoffRecord } from './job-util.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import { metav1SelectorOf, ownersSelecting, resolveControllerRef } from '../util/controller-ref.js';

export interface JobControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys synced in parallel (upstream --concurrent-job-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
  /** The pod backoff after the first failure (upstream DefaultJobBackOff, 10 s). */
  readonly backoffBaseMs?: number;
  /** Its cap (upstream MaxJobBackOff, 6 min). */
  readonly backoffMaxMs?: number;
  /** Record events (default true). */
  readonly recordEvents?: boolean;
  /**
   * How many pods status.uncountedTerminatedPods (and newly completed indexes) may hold after one
   * sync (upstream MaxUncountedPods, 500): the rest are counted, and their finalizers removed, on
   * later syncs, keeping the status small and one big Job from starving the others.
   */
  readonly maxUncountedPods?: number;
  /**
   * How long a pod update waits before its Job is synced (upstream's podUpdateBatchPeriod: 1 s
   * with JobReadyPods, on by default in v1.27). The pause batches a burst of pod changes into one
   * sync and lets the Job informer catch up with the controller's own status writes first: a sync
   * on a stale Job would not count pods whose finalizers it already removed, and create more.
   */
  readonly podUpdateBatchPeriodMs?: number;
}

const jobsPath = '/apis/batch/v1/jobs';
const podsPath = '/api/v1/pods';
const jobsOf = (ns: string): string => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs`;
const podsOf = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`;
/** MaxPodCreateDeletePerSync. */
const maxPerSync = 500;
const orphanPrefix = 'orphan:';

function isCode(err: unknown, ...codes: number[]): boolean {
  return err instanceof ApiError && codes.includes(err.code);
}

function suspended(job: JsonObject): boolean {
  return obj(job['spec'])['suspend'] === true;
}

/** spec.completions; undefined when unset (a work-queue Job). */
function completionsOf(job: JsonObject): number | undefined {
  const c = obj(job['spec'])['completions'];
  return typeof c === 'number' ? c : undefined;
}

interface Uncounted {
  readonly succeeded: Set<string>;
  readonly failed: Set<string>;
}

function uncountedOf(job: JsonObject): Uncounted {
  const u = obj(obj(job['status'])['uncountedTerminatedPods']);
  const ids = (v: JsonValue | undefined): Set<string> =>
    new Set(arr(v).filter((x): x is string => typeof x === 'string'));
  return { succeeded: ids(u['succeeded']), failed: ids(u['failed']) };
}

/** Pods with restarts: pastBackoffLimitOnFailure (restartPolicy OnFailure; Running and Pending pods). */
function pastBackoffLimitOnFailure(job: JsonObject, pods: readonly JsonObject[]): boolean {
  const spec = obj(job['spec']);
  if (str(obj(obj(spec['template'])['spec'])['restartPolicy']) !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    const phase = podPhase(p);
    if (phase !== 'Running' && phase !== 'Pending') continue;
    const st = obj(p['status']);
    for (const cs of [...arr(st['initContainerStatuses']), ...arr(st['containerStatuses'])]) {
      restarts += num(obj(cs)['restartCount']);
    }
  }
  const limit = num(spec['backoffLimit'], 6);
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

export class JobController {
  readonly #o: JobControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #expectations: ControllerExpectations;
  /** Pod uids whose finalizer removal was sent but not yet observed, per Job key. */
  readonly #finalizerRemovals = new Map<string, Set<string>>();
  /**
   * Jobs this controller marked finished (Complete or Failed), by key, with their uid, until the
   * informer shows the finished status. The informer's copy lags our status write: a sync in that
   * window would see the old status with the active pods already deleted and create new pods for
   * a Job that is over. Finished is terminal, so the stale copy is never acted on.
   */
  readonly #finished = new Map<string, string>();
  readonly #backoff = new Map<string, BackoffRecord>();
  readonly #recorder: EventRecorder | undefined;
  #jobInformer: SharedInformer | undefined;
  #jobIndex: NamespaceIndex | undefined;
  #podIndex: NamespaceIndex | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: JobControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#expectations = new ControllerExpectations(this.#clock);
    const onError = o.onError;
    this.#queue = controllerQueue('Job', onError, this.#clock);
    this.#recorder =
      o.recordEvents === false
        ? undefined
        : new EventRecorder({
            client: o.client,
            reportingController: 'job-controller',
            reportingInstance: `job-controller-${hostname()}`,
            // Event names and times are wall-clock (a frozen FakeClock would repeat event names).
            ...(onError !== undefined ? { onError } : {}),
          });
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const jobInformer = this.#o.informers.informerFor(jobsPath);
    const podInformer = this.#o.informers.informerFor(podsPath);
    this.#jobInformer = jobInformer;
    this.#jobIndex = new NamespaceIndex(jobInformer);
    this.#podIndex = new NamespaceIndex(podInformer);
    this.#jobIndex.start();
    this.#podIndex.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const regs = [
      jobInformer.addEventHandler({
        onAdd: (job) => this.#enqueue(job),
        onUpdate: (_old, job) => this.#enqueue(job),
        onDelete: (job) => this.#enqueue(job),
      }),
      podInformer.addEventHandler({
        onAdd: (pod) => this.#addPod(pod),
        onUpdate: (old, pod) => this.#updatePod(old, pod),
        onDelete: (pod) => this.#deletePod(pod),
      }),
    ];
    const recording = this.#recorder?.run(signal);
    try {
      if (!(await informersSynced([jobInformer, podInformer], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#syncKey(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
      this.#jobIndex.stop();
      this.#podIndex.stop();
      delayed.cancelAll();
      await recording;
    }
  }

  #enqueue(job: JsonObject): void {
    this.#queue.add(keyFor(namespace(job), name(job)));
  }

  #resolve(ns: string, ref: OwnerRef | undefined): JsonObject | undefined {
    return resolveControllerRef(this.#jobInformer, 'Job', ns, ref);
  }

  /** Jobs in the pod's namespace whose selector matches it (for orphans to adopt). */
  #matching(pod: JsonObject): JsonObject[] {
    return ownersSelecting(this.#jobIndex?.list(namespace(pod)) ?? [], pod, metav1SelectorOf);
  }

  #maybeOrphan(pod: JsonObject): void {
    if (!hasTrackingFinalizer(pod)) return;
    const job = this.#resolve(namespace(pod), controllerOf(pod));
    if (job === undefined || isJobFinished(job)) {
      this.#queue.add(`${orphanPrefix}${keyFor(namespace(pod), name(pod))}`);
    }
  }

  #finalizerRemovalObserved(pod: JsonObject): void {
    const ref = controllerOf(pod);
    if (ref === undefined) return;
    this.#finalizerRemovals.get(keyFor(namespace(pod), ref.name))?.delete(uid(pod));
  }

  #addPod(pod: JsonObject): void {
    if (deleting(pod)) {
      this.#deletePod(pod);
      return;
    }
    const ref = controllerOf(pod);
    if (ref !== undefined) {
      const job = this.#resolve(namespace(pod), ref);
      if (job === undefined) {
        this.#maybeOrphan(pod);
        return;
      }
      const key = keyFor(namespace(job), name(job));
      this.#expectations.creationObserved(key);
      this.#queue.add(key);
      return;
    }
    this.#maybeOrphan(pod);
    for (const job of this.#matching(pod)) this.#enqueue(job);
  }

  #updatePod(old: JsonObject, pod: JsonObject): void {
    if (str(meta(old)['resourceVersion']) === str(meta(pod)['resourceVersion'])) return;
    if (hasTrackingFinalizer(old) && !hasTrackingFinalizer(pod)) this.#finalizerRemovalObserved(pod);
    if (deleting(pod)) {
      this.#deletePod(pod);
      return;
    }
    const oldRef = controllerOf(old);
    const ref = controllerOf(pod);
    if (oldRef?.uid !== ref?.uid && oldRef !== undefined) {
      const job = this.#resolve(namespace(old), oldRef);
      if (job !== undefined) this.#enqueue(job);
    }
    if (ref !== undefined) {
      const job = this.#resolve(namespace(pod), ref);
      if (job === undefined) {
        this.#maybeOrphan(pod);
        return;
      }
      const batch = this.#o.podUpdateBatchPeriodMs ?? 1000;
      if (this.#delayed === undefined || batch <= 0) this.#enqueue(job);
      else this.#delayed.addAfter(keyFor(namespace(job), name(job)), batch);
      return;
    }
    this.#maybeOrphan(pod);
    const labelChanged = !jsonEqual(meta(old)['labels'] ?? {}, meta(pod)['labels'] ?? {});
    if (labelChanged || oldRef !== undefined) for (const job of this.#matching(pod)) this.#enqueue(job);
  }

  #deletePod(pod: JsonObject): void {
    const ref = controllerOf(pod);
    if (!deleting(pod)) this.#finalizerRemovalObserved(pod);
    const job = this.#resolve(namespace(pod), ref);
    if (job === undefined) {
      if (deleting(pod)) this.#maybeOrphan(pod);
      return;
    }
    const key = keyFor(namespace(job), name(job));
    this.#expectations.deletionObserved(key, keyFor(namespace(pod), name(pod)));
    this.#queue.add(key);
  }

  #event(job: JsonObject, type: 'Normal' | 'Warning', reason: string, note: string): void {
    this.#recorder?.event({ apiVersion: 'batch/v1', kind: 'Job', ...job }, type, reason, reason, note);
  }

  async #syncKey(key: string, signal: AbortSignal): Promise<undefined> {
    if (key.startsWith(orphanPrefix)) {
      await this.#syncOrphanPod(key.slice(orphanPrefix.length), signal);
      return undefined;
    }
    await this.#sync(key, signal);
    return undefined;
  }

  /** syncOrphanPod: drops the tracking finalizer of a pod whose Job is gone or finished. */
  async #syncOrphanPod(podKey: string, signal: AbortSignal): Promise<void> {
    const [ns = '', podName = ''] = podKey.split('/');
    const pod = this.#podIndex?.list(ns).find((p) => name(p) === podName);
    if (pod === undefined || !hasTrackingFinalizer(pod)) return;
    const job = this.#resolve(ns, controllerOf(pod));
    if (job !== undefined && !isJobFinished(job)) return;
    await this.#removeFinalizer(pod, signal);
  }

  async #removeFinalizer(pod: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('PATCH', `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`, {
        body: { metadata: { '$deleteFromPrimitiveList/finalizers': [jobTrackingFinalizer], uid: uid(pod) } },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
    } catch (err) {
      if (!isCode(err, 404, 409)) throw err;
    }
  }

  async #sync(key: string, signal: AbortSignal): Promise<void> {
    const cached = this.#jobInformer?.store.get(key);
    if (cached === undefined) {
      this.#expectations.delete(key);
      this.#finalizerRemovals.delete(key);
      this.#backoff.delete(key);
      this.#finished.delete(key);
      return;
    }
    const finishedUid = this.#finished.get(key);
    if (finishedUid !== undefined && (finishedUid !== uid(cached) || isJobFinished(cached))) {
      this.#finished.delete(key);
    }
    if (isJobFinished(cached) || this.#finished.has(key)) {
      this.#backoff.delete(key);
      return;
    }
    let job = cloneJson(cached);
    const mode = obj(job['spec'])['completionMode'];
    if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
      this.#event(
        job,
        'Warning',
        'UnknownCompletionMode',
        'Skipped Job sync because completion mode is unknown',
      );
      return;
    }
    const now = this.#clock.now();
    const spec = obj(job['spec']);
    const parallelism = num(spec['parallelism'], 1);
    const backoffLimit = num(spec['backoffLimit'], 6);
    const completions = completionsOf(job);
    const indexed = isIndexedJob(job) && completions !== undefined;
    const status = cloneJson(obj(job['status']));
    job['status'] = status;
    if (!isJsonObject(status['uncountedTerminatedPods'])) status['uncountedTerminatedPods'] = {};
    const uncounted = uncountedOf(job);
    const expectedRm = new Set(this.#finalizerRemovals.get(key) ?? []);
    const satisfied = this.#expectations.satisfied(key);

    const pods = await this.#claimPods(job, signal);
    const activePods = pods.filter(isPodActive);
    let active = activePods.length;
    const valid = (p: JsonObject, uncountedSet: Set<string>): boolean => {
      if (!hasTrackingFinalizer(p) || uncountedSet.has(uid(p)) || expectedRm.has(uid(p))) return false;
      if (indexed) {
        const ix = completionIndex(p);
        if (ix === undefined || ix >= (completions ?? 0)) return false;
      }
      return true;
    };
    const policy = podFailurePolicy(job);
    const newSucceeded = pods.filter((p) => valid(p, uncounted.succeeded) && podPhase(p) === 'Succeeded');
    const newFailed = pods.filter(
      (p) =>
        valid(p, uncounted.failed) && isPodFailed(p, job) && matchPodFailurePolicy(policy, p).countFailed,
    );
    let succeeded = num(status['succeeded']) + newSucceeded.length + uncounted.succeeded.size;
    const failed = num(status['failed']) + newFailed.length + uncounted.failed.size;
    const ready = activePods.filter(isPodReady).length;

    if (status['startTime'] === undefined && !suspended(job)) status['startTime'] = rfc3339(now);
    const backoff = nextBackoffRecord(this.#backoff.get(key) ?? noBackoff, newSucceeded, newFailed, now);

    const jobHasNewFailure = failed > num(status['failed']);
    const exceedsBackoffLimit = jobHasNewFailure && active !== parallelism && failed > backoffLimit;
    let finished: JsonObject | undefined;
    const failureTarget = findCondition(job, 'FailureTarget');
    if (failureTarget !== undefined) {
      finished = newCondition(
        'Failed',
        'True',
        str(failureTarget['reason']),
        str(failureTarget['message']),
        now,
      );
    } else {
      const message = this.#failJobMessage(job, pods);
      if (message !== undefined)
        finished = newCondition('FailureTarget', 'True', 'PodFailurePolicy', message, now);
    }
    if (finished === undefined) {
      const start = timeOf(status['startTime']);
      const deadline = spec['activeDeadlineSeconds'];
      if (exceedsBackoffLimit || pastBackoffLimitOnFailure(job, pods)) {
        finished = newCondition(
          'Failed',
          'True',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          now,
        );
      } else if (typeof deadline === 'number' && start !== undefined && !suspended(job)) {
        const remaining = deadline * 1000 - (now - start);
        if (remaining <= 0) {
          finished = newCondition(
            'Failed',
            'True',
            'DeadlineExceeded',
            'Job was active longer than specified deadline',
            now,
          );
        } else {
          this.#delayed?.addAfter(key, remaining);
        }
      }
    }

    const prevIndexes = indexed
      ? parseIndexes(str(status['completedIndexes']), completions)
      : new Set<number>();
    let succeededIndexes = prevIndexes;
    if (indexed) {
      succeededIndexes = new Set(prevIndexes);
      for (const p of pods) {
        const ix = completionIndex(p);
        if (podPhase(p) === 'Succeeded' && ix !== undefined && ix < completions && hasTrackingFinalizer(p)) {
          succeededIndexes.add(ix);
        }
      }
      succeeded = succeededIndexes.size;
    }

    let suspendChanged = false;
    let manageErr: unknown;
    if (finished !== undefined) {
      const { deleted, err } = await this.#deletePods(job, key, activePods, signal);
      // Not finished yet while pods remain or creations/deletions are unobserved.
      if (deleted !== active || !satisfied) finished = undefined;
      active -= deleted;
      manageErr = err;
    } else {
      let managed = false;
      if (satisfied && !deleting(job)) {
        try {
          active = await this.#manageJob(job, key, activePods, succeeded, succeededIndexes, backoff, signal);
        } catch (err) {
          if (signal.aborted) throw err;
          manageErr = err;
          active = activePods.length;
        }
        managed = true;
      }
      const complete =
        completions === undefined ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
      if (complete) {
        finished = newCondition('Complete', 'True', '', '', now);
      } else if (managed) {
        const conditions = arr(status['conditions']).filter(isJsonObject);
        if (suspended(job)) {
          if (ensureCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)) {
            suspendChanged = true;
            this.#event(job, 'Normal', 'Suspended', 'Job suspended');
          }
        } else if (ensureCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', now)) {
          suspendChanged = true;
          this.#event(job, 'Normal', 'Resumed', 'Job resumed');
          status['startTime'] = rfc3339(now);
        }
        if (conditions.length > 0) status['conditions'] = conditions;
      }
    }

    const needsStatusUpdate = suspendChanged || active !== num(status['active']) || ready !== status['ready'];
    status['active'] = active;
    status['ready'] = ready;
    try {
      job = await this.#trackStatusAndRemoveFinalizers(
        job,
        key,
        pods,
        prevIndexes,
        uncounted,
        expectedRm,
        finished,
        needsStatusUpdate,
        signal,
      );
      this.#backoff.set(key, backoff);
      if (isJobFinished(job)) this.#finished.set(key, uid(job));
    } catch (err) {
      if (isCode(err, 409)) {
        this.#queue.add(key);
        return;
      }
      throw err;
    }
    if (jobHasNewFailure && !isJobFinished(job) && manageErr === undefined) {
      // Upstream returns an error so the key is retried with backoff; we re-queue after it.
      const wait = backoffRemaining(backoff, this.#clock.now(), this.#backoffBase, this.#backoffMax);
      this.#delayed?.addAfter(key, Math.max(1, wait));
    }
    if (manageErr !== undefined) throw asError(manageErr);
  }

  get #backoffBase(): number {
    return this.#o.backoffBaseMs ?? 10_000;
  }

  get #backoffMax(): number {
    return this.#o.backoffMaxMs ?? 360_000;
  }

  /** getFailJobMessage: a failed pod matching a FailJob rule. */
  #failJobMessage(job: JsonObject, pods: readonly JsonObject[]): string | undefined {
    const policy = podFailurePolicy(job);
    if (policy === undefined) return undefined;
    for (const p of pods) {
      if (!isPodFailed(p, job)) continue;
      const m = matchPodFailurePolicy(policy, p).failJobMessage;
      if (m !== undefined) return m;
    }
    return undefined;
  }

  /** getPodsForJob: ClaimPods (adoption adds the tracking finalizer; release drops the reference). */
  async #claimPods(job: JsonObject, signal: AbortSignal): Promise<JsonObject[]> {
    const sel = asSelector(obj(obj(job['spec'])['selector']));
    if (!sel.ok) return [];
    const out: JsonObject[] = [];
    let canAdopt: Promise<boolean> | undefined;
    const errors: unknown[] = [];
    for (const pod of this.#podIndex?.list(namespace(job)) ?? []) {
      const ref = controllerOf(pod);
      const matches = !sel.empty && sel.matches(labels(pod));
      try {
        if (ref !== undefined) {
          if (ref.uid !== uid(job)) continue;
          if (matches) {
            out.push(pod);
            continue;
          }
          if (deleting(job)) continue;
          await this.#patchPod(pod, { ownerReferences: [{ $patch: 'delete', uid: uid(job) }] }, signal);
          continue;
        }
        if (deleting(job) || !matches || deleting(pod)) continue;
        canAdopt ??= this.#recheckDeletion(job, signal);
        if (!(await canAdopt)) continue;
        const controllerRef = newControllerRef(job, 'batch/v1', 'Job');
        const adopted = await this.#patchPod(
          pod,
          { ownerReferences: [{ ...controllerRef }], finalizers: [jobTrackingFinalizer] },
          signal,
        );
        if (adopted) {
          const copy = cloneJson(pod);
          const m = obj(copy['metadata']);
          if (!hasTrackingFinalizer(copy)) m['finalizers'] = [...arr(m['finalizers']), jobTrackingFinalizer];
          copy['metadata'] = m;
          out.push(copy);
        }
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw asError(errors[0]);
    return out;
  }

  async #recheckDeletion(job: JsonObject, signal: AbortSignal): Promise<boolean> {
    const fresh = await this.#o.client.request(
      'GET',
      `${jobsOf(namespace(job))}/${encodeURIComponent(name(job))}`,
      {
        signal,
      },
    );
    if (uid(fresh) !== uid(job)) {
      throw new Error(
        `original Job ${namespace(job)}/${name(job)} is gone: got uid ${uid(fresh)}, wanted ${uid(job)}`,
      );
    }
    return !deleting(fresh);
  }

  async #patchPod(pod: JsonObject, metadata: JsonObject, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#o.client.request('PATCH', `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`, {
        body: { metadata: { ...metadata, uid: uid(pod) } },
        contentType: 'application/strategic-merge-patch+json',
        signal,
      });
      return true;
    } catch (err) {
      if (isCode(err, 404, 422)) return false;
      throw err;
    }
  }

  /** manageJob: creates or deletes pods towards the wanted number of active ones. */
  async #manageJob(
    job: JsonObject,
    key: string,
    activePods: readonly JsonObject[],
    succeeded: number,
    succeededIndexes: ReadonlySet<number>,
    backoff: BackoffRecord,
    signal: AbortSignal,
  ): Promise<number> {
    let active = activePods.length;
    const spec = obj(job['spec']);
    const parallelism = num(spec['parallelism'], 1);
    const completions = completionsOf(job);
    if (suspended(job)) {
      const { deleted, err } = await this.#deletePods(job, key, activePods, signal);
      if (err !== undefined) throw asError(err);
      return active - deleted;
    }
    let wantActive: number;
    if (completions === undefined) wantActive = succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(completions - succeeded, parallelism));

    const rmAtLeast = Math.max(0, active - wantActive);
    const toDelete = this.#podsForRemoval(job, activePods, rmAtLeast).slice(0, maxPerSync);
    if (toDelete.length > 0) {
      const { deleted, err } = await this.#deletePods(job, key, toDelete, signal);
      if (err !== undefined) throw asError(err);
      return active - deleted;
    }
    if (active >= wantActive) return active;
    const wait = backoffRemaining(backoff, this.#clock.now(), this.#backoffBase, this.#backoffMax);
    if (wait > 0) {
      this.#delayed?.addAfter(key, wait);
      return active;
    }
    let diff = Math.min(wantActive - active, maxPerSync);
    let indexes: (number | undefined)[] = Array.from({ length: diff }, () => undefined);
    if (isIndexedJob(job) && completions !== undefined) {
      indexes = firstPendingIndexes(activePods, succeededIndexes, diff, completions);
      diff = indexes.length;
    }
    if (diff === 0) return active;
    this.#expectations.expectCreations(key, diff);
    let created = 0;
    let firstError: unknown;
    let next = 0;
    for (let batch = Math.min(diff, 1); batch > 0; batch = Math.min(2 * batch, diff - next)) {
      const slice = indexes.slice(next, next + batch);
      next += batch;
      const results = await Promise.allSettled(slice.map((ix) => this.#createPod(job, ix, signal)));
      for (const r of results) {
        if (r.status === 'fulfilled') created++;
        else firstError ??= r.reason;
      }
      if (firstError !== undefined) break;
    }
    for (let i = created; i < diff; i++) this.#expectations.creationObserved(key);
    active += created;
    if (firstError !== undefined) throw asError(firstError);
    return active;
  }

  /** activePodsForRemoval: duplicated or out-of-range indexes first, then ActivePods order. */
  #podsForRemoval(job: JsonObject, pods: readonly JsonObject[], rmAtLeast: number): JsonObject[] {
    const now = this.#clock.now();
    const rank = (a: JsonObject, b: JsonObject): number => comparePodsForDeletion(a, b, 0, 0, now);
    const rm: JsonObject[] = [];
    let left: JsonObject[] = [...pods];
    const completions = completionsOf(job);
    if (isIndexedJob(job) && completions !== undefined) {
      left = [];
      const byIndex = new Map<number, JsonObject[]>();
      for (const p of pods) {
        const ix = completionIndex(p);
        if (ix === undefined || ix >= completions) rm.push(p);
        else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
      }
      for (const group of byIndex.values()) {
        group.sort(rank);
        rm.push(...group.slice(0, -1));
        left.push(group[group.length - 1]!);
      }
    }
    if (rm.length < rmAtLeast) {
      left.sort(rank);
      rm.push(...left.slice(0, rmAtLeast - rm.length));
    }
    return rm;
  }

  async #createPod(job: JsonObject, index: number | undefined, signal: AbortSignal): Promise<void> {
    const template = obj(obj(job['spec'])['template']);
    const tmeta = obj(template['metadata']);
    const podSpec = cloneJson(obj(template['spec']));
    const metadata: JsonObject = {
      generateName: index === undefined ? `${name(job)}-` : generateNameWithIndex(name(job), index),
      ownerReferences: [{ ...newControllerRef(job, 'batch/v1', 'Job') }],
      finalizers: [
        ...arr(tmeta['finalizers']).filter((f) => f !== jobTrackingFinalizer),
        jobTrackingFinalizer,
      ],
    };
    if (isJsonObject(tmeta['labels'])) metadata['labels'] = cloneJson(tmeta['labels']);
    const podAnnotations = isJsonObject(tmeta['annotations']) ? cloneJson(tmeta['annotations']) : {};
    if (index !== undefined) {
      podAnnotations[completionIndexAnnotation] = String(index);
      podSpec['hostname'] = `${name(job)}-${index}`;
      for (const field of ['initContainers', 'containers']) {
        const containers = arr(podSpec[field]).filter(isJsonObject);
        for (const c of containers) {
          const env = arr(c['env']).filter(isJsonObject);
          if (env.some((e) => e['name'] === completionIndexEnv)) continue;
          env.push({
            name: completionIndexEnv,
            valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${completionIndexAnnotation}']` } },
          });
          c['env'] = env;
        }
        if (containers.length > 0) podSpec[field] = containers;
      }
    }
    if (Object.keys(podAnnotations).length > 0) metadata['annotations'] = podAnnotations;
    try {
      const pod = await this.#o.client.request('POST', podsOf(namespace(job)), {
        body: { apiVersion: 'v1', kind: 'Pod', metadata, spec: podSpec },
        signal,
      });
      this.#event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${name(pod)}`);
    } catch (err) {
      if (hasStatusCause(err, 'NamespaceTerminating')) return;
      this.#event(job, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
      throw err;
    }
  }

  /** deleteJobPods: drops each pod's tracking finalizer, then deletes it (not counted as failed). */
  async #deletePods(
    job: JsonObject,
    key: string,
    pods: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<{ deleted: number; err: unknown }> {
    if (pods.length === 0) return { deleted: 0, err: undefined };
    const podKeys = pods.map((p) => keyFor(namespace(p), name(p)));
    this.#expectations.expectDeletions(key, podKeys);
    let deleted = pods.length;
    let firstError: unknown;
    await Promise.all(
      pods.map(async (pod, i) => {
        try {
          if (hasTrackingFinalizer(pod)) await this.#removeFinalizer(pod, signal);
          await this.#o.client.request(
            'DELETE',
            `${podsOf(namespace(pod))}/${encodeURIComponent(name(pod))}`,
            {
              signal,
            },
          );
          this.#event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name(pod)}`);
        } catch (err) {
          this.#expectations.deletionObserved(key, podKeys[i]!);
          if (!isCode(err, 404)) {
            deleted--;
            firstError ??= err;
          }
        }
      }),
    );
    return { deleted, err: firstError };
  }

  /**
   * trackJobStatusAndRemoveFinalizers: records newly finished pods as uncounted (or completed
   * indexes), writes status, removes their finalizers, counts them, and writes the finished
   * condition once nothing is left uncounted.
   */
  async #trackStatusAndRemoveFinalizers(
    jobIn: JsonObject,
    key: string,
    pods: readonly JsonObject[],
    prevIndexes: ReadonlySet<number>,
    uncounted: Uncounted,
    expectedRm: ReadonlySet<string>,
    finishedIn: JsonObject | undefined,
    needsFlushIn: boolean,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    let job = jobIn;
    let finished = finishedIn;
    let needsFlush = needsFlushIn;
    const status = obj(job['status']);
    const completions = completionsOf(job);
    const indexed = isIndexedJob(job) && completions !== undefined;
    const policy = podFailurePolicy(job);
    const uidsWithFinalizer = new Set<string>();
    for (const p of pods)
      if (hasTrackingFinalizer(p) && !expectedRm.has(uid(p))) uidsWithFinalizer.add(uid(p));
    const newUncountedSucceeded = [...uncounted.succeeded];
    const newUncountedFailed = [...uncounted.failed];
    const newIndexes: number[] = [];
    const toRemove: JsonObject[] = [];
    const maxUncounted = this.#o.maxUncountedPods ?? 500;
    let reachedMaxUncounted = false;
    for (const pod of pods) {
      if (!hasTrackingFinalizer(pod) || expectedRm.has(uid(pod))) continue;
      const phase = podPhase(pod);
      const terminal = phase === 'Succeeded' || phase === 'Failed';
      let considerTerminated = deleting(pod) || finished !== undefined;
      if (policy !== undefined)
        considerTerminated = terminal || finished !== undefined || isPodFailed(pod, job);
      if (terminal || considerTerminated || deleting(job)) toRemove.push(pod);
      if (phase === 'Succeeded' && !uncounted.failed.has(uid(pod))) {
        if (indexed) {
          const ix = completionIndex(pod);
          if (ix !== undefined && ix < completions && !prevIndexes.has(ix)) {
            newIndexes.push(ix);
            needsFlush = true;
          }
        } else if (!uncounted.succeeded.has(uid(pod))) {
          needsFlush = true;
          newUncountedSucceeded.push(uid(pod));
        }
      } else if (phase === 'Failed' || considerTerminated) {
        const ix = completionIndex(pod);
        if (!uncounted.failed.has(uid(pod)) && (!indexed || (ix !== undefined && ix < completions))) {
          if (matchPodFailurePolicy(policy, pod).countFailed) {
            needsFlush = true;
            newUncountedFailed.push(uid(pod));
          }
        }
      }
      if (newIndexes.length + newUncountedSucceeded.length + newUncountedFailed.length >= maxUncounted) {
        // Enough for this sync: the status and pod updates bring the Job back for the rest.
        reachedMaxUncounted = true;
        break;
      }
    }
    if (indexed) {
      const all = formatIndexes([...prevIndexes, ...newIndexes]);
      if (all !== str(status['completedIndexes'])) needsFlush = true;
      status['succeeded'] = new Set([...prevIndexes, ...newIndexes]).size;
      status['completedIndexes'] = all;
    }
    status['uncountedTerminatedPods'] = {
      ...(newUncountedSucceeded.length > 0 ? { succeeded: newUncountedSucceeded } : {}),
      ...(newUncountedFailed.length > 0 ? { failed: newUncountedFailed } : {}),
    };
    if (finished !== undefined && finished['type'] === 'FailureTarget') {
      status['conditions'] = [...arr(status['conditions']), finished];
      needsFlush = true;
      finished = newCondition(
        'Failed',
        'True',
        str(finished['reason']),
        str(finished['message']),
        this.#clock.now(),
      );
    }
    job['status'] = status;

    // flushUncountedAndRemoveFinalizers
    if (needsFlush) {
      job = await this.#updateStatus(job, signal);
      needsFlush = false;
    }
    let removeErr: unknown;
    if (toRemove.length > 0) {
      const expecting = this.#finalizerRemovals.get(key) ?? new Set<string>();
      this.#finalizerRemovals.set(key, expecting);
      await Promise.all(
        toRemove.map(async (pod) => {
          expecting.add(uid(pod));
          try {
            await this.#removeFinalizer(pod, signal);
            uidsWithFinalizer.delete(uid(pod));
          } catch (err) {
            expecting.delete(uid(pod));
            removeErr ??= err;
          }
        }),
      );
    }
    // cleanUncountedPodsWithoutFinalizers
    const st = obj(job['status']);
    const u = uncountedOf(job);
    const stillS = [...u.succeeded].filter((x) => uidsWithFinalizer.has(x));
    const stillF = [...u.failed].filter((x) => uidsWithFinalizer.has(x));
    if (stillS.length !== u.succeeded.size || stillF.length !== u.failed.size) {
      st['succeeded'] = num(st['succeeded']) + (u.succeeded.size - stillS.length);
      st['failed'] = num(st['failed']) + (u.failed.size - stillF.length);
      st['uncountedTerminatedPods'] = {
        ...(stillS.length > 0 ? { succeeded: stillS } : {}),
        ...(stillF.length > 0 ? { failed: stillF } : {}),
      };
      needsFlush = true;
    }
    job['status'] = st;
    // enactJobFinished
    let jobFinished = false;
    if (finished !== undefined && !reachedMaxUncounted && stillS.length === 0 && stillF.length === 0) {
      st['conditions'] = [
        ...arr(st['conditions']).filter((c) => obj(c)['type'] !== finished['type']),
        finished,
      ];
      if (finished['type'] === 'Complete') st['completionTime'] = rfc3339(this.#clock.now());
      jobFinished = true;
      needsFlush = true;
    }
    if (needsFlush) {
      job = await this.#updateStatus(job, signal);
      if (jobFinished) {
        if (finished?.['type'] === 'Complete') this.#event(job, 'Normal', 'Completed', 'Job completed');
        else if (finished !== undefined)
          this.#event(job, 'Warning', str(finished['reason']), str(finished['message']));
      }
    }
    if (removeErr !== undefined) throw asError(removeErr);
    return job;
  }

  async #updateStatus(job: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    // active, succeeded and failed are omitempty counters.
    const status = obj(job['status']);
    for (const k of ['active', 'succeeded', 'failed']) if (status[k] === 0) delete status[k];
    job['status'] = status;
    return this.#o.client.request(
      'PUT',
      `${jobsOf(namespace(job))}/${encodeURIComponent(name(job))}/status`,
      {
        body: job,
        signal,
      },
    );
  }
}
