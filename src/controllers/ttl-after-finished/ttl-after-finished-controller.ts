/**
 * The TTL-after-finished controller (upstream v1.27 pkg/controller/ttlafterfinished): a Job with
 * `spec.ttlSecondsAfterFinished` is deleted that many seconds after its Complete or Failed
 * condition's lastTransitionTime, with propagationPolicy Foreground and a uid precondition, after
 * re-reading it from the API server to be sure the TTL has not changed. Waiting is on the injected
 * Clock.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { DelayedAdds, realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { arr, deleting, name, namespace, obj, timeOf, uid } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';

export interface TtlAfterFinishedControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** Keys processed in parallel (upstream --concurrent-ttl-after-finished-syncs, 5). */
  readonly workers?: number;
  readonly clock?: Clock;
}

const jobsPath = '/apis/batch/v1/jobs';
const jobsOf = (ns: string): string => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs`;

/** When the Job finished (its Complete/Failed condition's lastTransitionTime), if it has. */
export function jobFinishTime(job: JsonObject): number | undefined {
  for (const c of arr(obj(job['status'])['conditions'])) {
    const cond = obj(c);
    if ((cond['type'] === 'Complete' || cond['type'] === 'Failed') && cond['status'] === 'True') {
      return timeOf(cond['lastTransitionTime']);
    }
  }
  return undefined;
}

/** needsCleanup: a finished Job with a TTL. */
function ttlOf(job: JsonObject): number | undefined {
  const ttl = obj(job['spec'])['ttlSecondsAfterFinished'];
  return typeof ttl === 'number' ? ttl : undefined;
}

/** Milliseconds left before the Job expires; undefined when it needs no cleanup. */
export function timeLeft(job: JsonObject, now: number): number | undefined {
  const ttl = ttlOf(job);
  const finished = jobFinishTime(job);
  if (ttl === undefined || finished === undefined) return undefined;
  return finished + ttl * 1000 - now;
}

export class TtlAfterFinishedController {
  readonly #o: TtlAfterFinishedControllerOptions;
  readonly #clock: Clock;
  readonly #queue: WorkQueue;
  #informer: SharedInformer | undefined;
  #delayed: DelayedAdds | undefined;

  constructor(o: TtlAfterFinishedControllerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#queue = controllerQueue('TTL of Job', o.onError, this.#clock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const informer = this.#o.informers.informerFor(jobsPath);
    this.#informer = informer;
    const delayed = new DelayedAdds(this.#clock, (k) => this.#queue.add(k));
    this.#delayed = delayed;
    const maybe = (job: JsonObject): void => {
      if (!deleting(job) && timeLeft(job, 0) !== undefined)
        this.#queue.add(keyFor(namespace(job), name(job)));
    };
    const reg = informer.addEventHandler({ onAdd: maybe, onUpdate: (_old, job) => maybe(job) });
    try {
      if (!(await informersSynced([informer], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 5, (key) => this.#process(key, signal), signal);
    } finally {
      reg.remove();
      delayed.cancelAll();
    }
  }

  /** processTTL: true when expired; otherwise re-queued for when it will be. */
  #expired(key: string, job: JsonObject): boolean {
    if (deleting(job)) return false;
    const left = timeLeft(job, this.#clock.now());
    if (left === undefined) return false;
    if (left <= 0) return true;
    this.#delayed?.addAfter(key, left);
    return false;
  }

  async #process(key: string, signal: AbortSignal): Promise<undefined> {
    const cached = this.#informer?.store.get(key);
    if (cached === undefined || !this.#expired(key, cached)) return undefined;
    // The TTL may be stale: check the Job as the API server has it before deleting.
    const path = `${jobsOf(namespace(cached))}/${encodeURIComponent(name(cached))}`;
    let fresh: JsonObject;
    try {
      fresh = await this.#o.client.request('GET', path, { signal });
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
    if (!this.#expired(key, fresh)) return undefined;
    try {
      await this.#o.client.request('DELETE', path, {
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy: 'Foreground',
          preconditions: { uid: uid(fresh) },
        },
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return undefined;
      throw err;
    }
    return undefined;
  }
}
