/**
 * The CronJob controller (upstream v1.27 pkg/controller/cronjob, the v2 controller): creates a Job
 * named `<cronjob>-<scheduled time in minutes since the epoch>` from `spec.jobTemplate` at the most
 * recent missed schedule time (since lastScheduleTime or creation, bounded by
 * startingDeadlineSeconds), honours concurrencyPolicy Allow/Forbid/Replace, suspend, `timeZone`
 * (AM-10, IANA zones through Intl) and the history limits, keeps status.active,
 * lastScheduleTime and lastSuccessfulTime, and records upstream's events. It re-queues itself for
 * the next schedule time on the injected Clock. (The scheduled-timestamp annotation arrived in
 * v1.28 and is not written.)
 */
import { hostname } from 'node:os';
import { ApiError, hasStatusCause } from '../../client/api-error.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { cloneJson, isJsonObject } from '../../util/json.js';
import { DelayedAdds, realClock, rfc3339 } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { NamespaceIndex } from '../util/namespace-index.js';
import {
  arr,
  controllerOf,
  deleting,
  errorMessage,
  meta,
  name,
  namespace,
  newControllerRef,
  obj,
  str,
  timeOf,
  uid,
} from '../util/objects.js';
import { isValidTimeZone, localTimeZone, parseSchedule } from './cron.js';
import type { CronSchedule } from './cron.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';

export interface CronJobControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys synced in parallel (upstream --concurrent-cron-job-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
  /** The zone of schedules without `timeZone` (upstream: kube-controller-manager's local zone). */
  readonly timeZone?: string;
  /** Record events (default true). */
  readonly recordEvents?: boolean;
}

const cronJobsPath = '/apis/batch/v1/cronjobs';
const jobsPath = '/apis/batch/v1/jobs';
const cronJobsOf = (ns: string): string => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/cronjobs`;
const jobsOf = (ns: string): string => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs`;
/** nextScheduleDelta: re-queue a little after the schedule time. */
const nextScheduleDeltaMs = 100;

function isCode(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

/** The Complete or Failed condition type of a finished Job, else undefined. */
function finishedType(job: JsonObject): string | undefined {
  for (const c of arr(obj(job['status'])['conditions'])) {
    const t = obj(c)['type'];
    if ((t === 'Complete' || t === 'Failed') && obj(c)['status'] === 'True') return t;
  }
  return undefined;
}

/** A failed sync that may still have status to write. */
class SyncError extends Error {
  readonly updateStatus: boolean;
  constructor(cause: unknown, updateStatus: boolean) {
    super(errorMessage(cause), { cause });
    this.updateStatus = updateStatus;
  }
}

/** getJobName: `<cronjob>-<minutes since the epoch>`. */
export function jobNameFor(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

/** time.RFC1123Z of a UTC time. */
function rfc1123z(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

/**
 * getMostRecentScheduleTime: the latest schedule time in (earliest, now] and how many there were
 * (approximated once there are more than a thousand).
 */
export function mostRecentScheduleTime(
  sched: CronSchedule,
  earliest: number,
  now: number,
): { readonly time: number | undefined; readonly missed: number } {
  let t = sched.next(earliest);
  if (t === undefined || t > now) return { time: undefined, missed: 0 };
  let missed = 1;
  let start = t;
  for (let n = sched.next(t); n !== undefined && n <= now; n = sched.next(t)) {
    missed++;
    if (missed === 1000) {
      const interval = Math.max(1000, (n - start) / 999);
      const skip = Math.floor((now - n) / interval) - 2;
      if (skip > 0) {
        const jumped = sched.next(n + skip * interval - 1000);
        if (jumped !== undefined && jumped <= now) {
          missed += skip;
          n = jumped;
        }
      }
      start = n;
    }
    t = n;
  }
  return { time: t, missed };
}

export class CronJobController {
  readonly #o: CronJobControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  readonly #recorder: EventRecorder | undefined;
  #cjInformer: SharedInformer | undefined;
  #jobIndex: NamespaceIndex | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: CronJobControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    const onError = o.onError;
    this.#queue = controllerQueue('CronJob', onError, this.#clock);
    this.#recorder =
      o.recordEvents === false
        ? undefined
        : new EventRecorder({
            client: o.client,
            reportingController: 'cronjob-controller',
            reportingInstance: `cronjob-controller-${hostname()}`,
            ...(onError !== undefined ? { onError } : {}),
          });
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const cjInformer = this.#o.informers.informerFor(cronJobsPath);
    const jobInformer = this.#o.informers.informerFor(jobsPath);
    this.#cjInformer = cjInformer;
    this.#jobIndex = new NamespaceIndex(jobInformer);
    this.#jobIndex.start();
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const onJob = (job: JsonObject): void => {
      const ref = controllerOf(job);
      if (ref?.kind !== 'CronJob') return;
      const cj = cjInformer.store.get(keyFor(namespace(job), ref.name));
      if (cj !== undefined && uid(cj) === ref.uid) this.#queue.add(keyFor(namespace(cj), name(cj)));
    };
    const regs = [
      cjInformer.addEventHandler({
        onAdd: (cj) => this.#queue.add(keyFor(namespace(cj), name(cj))),
        onUpdate: (_old, cj) => this.#queue.add(keyFor(namespace(cj), name(cj))),
      }),
      jobInformer.addEventHandler({
        onAdd: onJob,
        onUpdate: (old, job) => {
          if (controllerOf(old)?.uid !== controllerOf(job)?.uid) onJob(old);
          onJob(job);
        },
        onDelete: onJob,
      }),
    ];
    const recording = this.#recorder?.run(signal);
    try {
      if (!(await informersSynced([cjInformer, jobInformer], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#sync(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
      this.#jobIndex.stop();
      delayed.cancelAll();
      await recording;
    }
  }

  #event(cj: JsonObject, type: 'Normal' | 'Warning', reason: string, note: string): void {
    this.#recorder?.event({ apiVersion: 'batch/v1', kind: 'CronJob', ...cj }, type, reason, reason, note);
  }

  async #sync(key: string, signal: AbortSignal): Promise<undefined> {
    const cached = this.#cjInformer?.store.get(key);
    if (cached === undefined) return undefined;
    const cj = cloneJson(cached);
    const jobs = (this.#jobIndex?.list(namespace(cj)) ?? []).filter((j) => controllerOf(j)?.uid === uid(cj));
    let requeueAfter: number | undefined;
    let updateStatus: boolean;
    let syncErr: unknown;
    try {
      ({ requeueAfter, updateStatus } = await this.#syncCronJob(cj, jobs, signal));
    } catch (err) {
      if (signal.aborted) throw err;
      syncErr = err;
      updateStatus = err instanceof SyncError && err.updateStatus;
      if (err instanceof SyncError) syncErr = err.cause;
    }
    if (!deleting(cj) && (await this.#cleanupFinishedJobs(cj, jobs, signal))) updateStatus = true;
    if (updateStatus) {
      try {
        await this.#o.client.request(
          'PUT',
          `${cronJobsOf(namespace(cj))}/${encodeURIComponent(name(cj))}/status`,
          { body: cj, signal },
        );
      } catch (err) {
        if (!isCode(err, 409) && !isCode(err, 404)) throw err;
        this.#queue.add(key);
        return undefined;
      }
    }
    if (syncErr !== undefined) throw syncErr instanceof Error ? syncErr : new Error(errorMessage(syncErr));
    if (requeueAfter !== undefined) this.#delayed?.addAfter(key, Math.max(1, requeueAfter));
    return undefined;
  }

  /** syncCronJob: reconciles status.active, then starts the Job of the most recent missed time. */
  async #syncCronJob(
    cj: JsonObject,
    jobs: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<{ requeueAfter: number | undefined; updateStatus: boolean }> {
    const status = obj(cj['status']);
    cj['status'] = status;
    const spec = obj(cj['spec']);
    let active = arr(status['active']).filter(isJsonObject);
    const setActive = (a: JsonObject[]): void => {
      active = a;
      if (a.length > 0) status['active'] = a;
      else delete status['active'];
    };
    let updateStatus = false;
    const now = this.#clock.now();
    const byUid = new Map(jobs.map((j) => [uid(j), j]));
    for (const j of jobs) {
      const found = active.some((r) => r['uid'] === uid(j));
      const finished = finishedType(j);
      if (!found && finished === undefined) {
        this.#event(
          cj,
          'Warning',
          'UnexpectedJob',
          `Saw a job that the controller did not create or forgot: ${name(j)}`,
        );
      } else if (found && finished !== undefined) {
        setActive(active.filter((r) => r['uid'] !== uid(j)));
        this.#event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${name(j)}, status: ${finished}`);
        updateStatus = true;
      } else if (finished !== undefined) {
        const completed = timeOf(obj(j['status'])['completionTime']);
        const last = timeOf(status['lastSuccessfulTime']);
        if (completed !== undefined && (last === undefined || completed > last)) {
          status['lastSuccessfulTime'] = rfc3339(completed);
          updateStatus = true;
        }
      }
    }
    for (const ref of [...active]) {
      if (byUid.has(str(ref['uid']))) continue;
      try {
        await this.#o.client.request(
          'GET',
          `${jobsOf(str(ref['namespace']) || namespace(cj))}/${encodeURIComponent(str(ref['name']))}`,
          { signal },
        );
      } catch (err) {
        if (!isCode(err, 404)) throw new SyncError(err, updateStatus);
        this.#event(cj, 'Normal', 'MissingJob', `Active job went missing: ${str(ref['name'])}`);
        setActive(active.filter((r) => r['uid'] !== ref['uid']));
        updateStatus = true;
      }
    }
    if (deleting(cj)) return { requeueAfter: undefined, updateStatus };

    const timeZone = spec['timeZone'];
    let zone = this.#o.timeZone ?? localTimeZone();
    if (typeof timeZone === 'string') {
      if (!isValidTimeZone(timeZone)) {
        this.#event(
          cj,
          'Warning',
          'UnknownTimeZone',
          `invalid timeZone: "${timeZone}": unknown time zone ${timeZone}`,
        );
        return { requeueAfter: undefined, updateStatus };
      }
      zone = timeZone;
    }
    if (spec['suspend'] === true) return { requeueAfter: undefined, updateStatus };

    const schedule = str(spec['schedule']);
    if (typeof timeZone !== 'string' && schedule.includes('TZ')) {
      this.#event(
        cj,
        'Warning',
        'UnsupportedSchedule',
        `CRON_TZ or TZ used in schedule "${schedule}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
      );
    }
    let sched: CronSchedule;
    try {
      sched = parseSchedule(typeof timeZone === 'string' ? `TZ=${timeZone} ${schedule}` : schedule, zone);
    } catch (err) {
      this.#event(
        cj,
        'Warning',
        'UnparseableSchedule',
        `unparseable schedule: "${schedule}" : ${errorMessage(err)}`,
      );
      return { requeueAfter: undefined, updateStatus };
    }
    const nextIn = (): number | undefined => {
      const n = sched.next(now);
      return n === undefined ? undefined : n + nextScheduleDeltaMs - now;
    };

    // nextScheduleTime
    let earliest = timeOf(status['lastScheduleTime']) ?? timeOf(meta(cj)['creationTimestamp']) ?? now;
    const deadline = spec['startingDeadlineSeconds'];
    if (typeof deadline === 'number') earliest = Math.max(earliest, now - deadline * 1000);
    const { time: scheduled, missed } = mostRecentScheduleTime(sched, earliest, now);
    if (missed > 100) {
      this.#event(
        cj,
        'Warning',
        'TooManyMissedTimes',
        `too many missed start times: ${missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
      );
    }
    if (scheduled === undefined) return { requeueAfter: nextIn(), updateStatus };
    if (typeof deadline === 'number' && scheduled + deadline * 1000 < now) {
      this.#event(
        cj,
        'Warning',
        'MissSchedule',
        `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`,
      );
      return { requeueAfter: nextIn(), updateStatus };
    }
    const jobName = jobNameFor(name(cj), scheduled);
    if (active.some((r) => r['name'] === jobName) || timeOf(status['lastScheduleTime']) === scheduled) {
      return { requeueAfter: nextIn(), updateStatus };
    }
    const policy = str(spec['concurrencyPolicy']) || 'Allow';
    if (policy === 'Forbid' && active.length > 0) {
      this.#event(
        cj,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return { requeueAfter: nextIn(), updateStatus };
    }
    if (policy === 'Replace') {
      for (const ref of [...active]) {
        await this.#deleteJob(cj, str(ref['name']), signal);
        setActive(active.filter((r) => r['uid'] !== ref['uid']));
        updateStatus = true;
      }
    }

    const template = obj(spec['jobTemplate']);
    const tmeta = obj(template['metadata']);
    const metadata: JsonObject = {
      name: jobName,
      ownerReferences: [{ ...newControllerRef(cj, 'batch/v1', 'CronJob') }],
    };
    if (isJsonObject(tmeta['labels'])) metadata['labels'] = cloneJson(tmeta['labels']);
    if (isJsonObject(tmeta['annotations'])) metadata['annotations'] = cloneJson(tmeta['annotations']);
    let created: JsonObject;
    try {
      created = await this.#o.client.request('POST', jobsOf(namespace(cj)), {
        body: { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: cloneJson(obj(template['spec'])) },
        signal,
      });
    } catch (err) {
      if (isCode(err, 409)) return { requeueAfter: undefined, updateStatus };
      if (!hasStatusCause(err, 'NamespaceTerminating')) {
        this.#event(cj, 'Warning', 'FailedCreate', `Error creating job: ${errorMessage(err)}`);
      }
      throw new SyncError(err, updateStatus);
    }
    this.#event(cj, 'Normal', 'SuccessfulCreate', `Created job ${name(created)}`);
    setActive([
      ...active,
      {
        kind: 'Job',
        namespace: namespace(created),
        name: name(created),
        uid: uid(created),
        apiVersion: 'batch/v1',
        resourceVersion: str(meta(created)['resourceVersion']),
      },
    ]);
    status['lastScheduleTime'] = rfc3339(scheduled);
    return { requeueAfter: nextIn(), updateStatus: true };
  }

  /** deleteJob: background propagation; SuccessfulDelete/FailedDelete events. */
  async #deleteJob(cj: JsonObject, jobName: string, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('DELETE', `${jobsOf(namespace(cj))}/${encodeURIComponent(jobName)}`, {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
        signal,
      });
    } catch (err) {
      if (!isCode(err, 404)) {
        this.#event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errorMessage(err)}`);
        throw err;
      }
    }
    this.#event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${jobName}`);
  }

  /** cleanupFinishedJobs: keeps the newest successful/failed Jobs within the history limits. */
  async #cleanupFinishedJobs(
    cj: JsonObject,
    jobs: readonly JsonObject[],
    signal: AbortSignal,
  ): Promise<boolean> {
    const spec = obj(cj['spec']);
    const okLimit = spec['successfulJobsHistoryLimit'];
    const failLimit = spec['failedJobsHistoryLimit'];
    if (typeof okLimit !== 'number' && typeof failLimit !== 'number') return false;
    const succeeded = jobs.filter((j) => finishedType(j) === 'Complete');
    const failed = jobs.filter((j) => finishedType(j) === 'Failed');
    let changed = false;
    for (const [list, limit] of [
      [succeeded, okLimit],
      [failed, failLimit],
    ] as const) {
      if (typeof limit !== 'number' || list.length <= limit) continue;
      const sorted = [...list].sort((a, b) => {
        const ta = timeOf(obj(a['status'])['startTime']);
        const tb = timeOf(obj(b['status'])['startTime']);
        if (ta !== tb) {
          if (ta === undefined) return 1;
          if (tb === undefined) return -1;
          return ta - tb;
        }
        return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
      });
      for (const j of sorted.slice(0, list.length - limit)) {
        await this.#deleteJob(cj, name(j), signal);
        const status = obj(cj['status']);
        const active = arr(status['active']).filter((r) => obj(r)['uid'] !== uid(j));
        if (active.length !== arr(status['active']).length) {
          if (active.length > 0) status['active'] = active;
          else delete status['active'];
          cj['status'] = status;
        }
        changed = true;
      }
    }
    return changed;
  }
}
