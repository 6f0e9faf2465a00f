/**
 * The PVC protection controller (upstream v1.27 pkg/controller/volume/pvcprotection),
 * `--controllers` name `pvc-protection`. A claim being deleted keeps its
 * `kubernetes.io/pvc-protection` finalizer while a pod uses it (see podUsesPVC): the informer's
 * pods are asked first, and only when none of them uses it, a live list of the namespace's pods
 * confirms it before the finalizer is removed. Claims that are not being deleted and lack the
 * finalizer get it (the StorageObjectInUseProtection admission plugin normally adds it). Claims
 * are re-examined when a pod that could release them is deleted, terminates or is unscheduled.
 *
 * Left out: the batching of claims per namespace with one shared live pod list (later releases).
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { arr, name, namespace, uid } from '../util/objects.js';
import { nodeName } from '../util/pods.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import {
  isDeletionCandidate,
  isPodTerminated,
  needToAddFinalizer,
  podClaims,
  podPvcIndex,
  podPvcKeys,
  podUsesPVC,
  pvcProtectionFinalizer,
  withFinalizer,
  withoutFinalizer,
} from './protection.js';

export interface PvcProtectionControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** What the work queue's delays (requeue, failure backoff) wait on (default: the real clock). */
  readonly clock?: Clock;
  /** Keys processed in parallel (upstream runs one worker). */
  readonly workers?: number;
}

const pvcsPath = '/api/v1/persistentvolumeclaims';
const podsPath = '/api/v1/pods';
const claimPath = (ns: string, n: string): string =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/persistentvolumeclaims/${encodeURIComponent(n)}`;

export class PvcProtectionController {
  readonly #o: PvcProtectionControllerOptions;
  readonly #queue: WorkQueue;
  #pvcs: SharedInformer | undefined;
  #pods: SharedInformer | undefined;

  constructor(o: PvcProtectionControllerOptions) {
    this.#o = o;
    this.#queue = controllerQueue('PVC protection of', o.onError, o.clock ?? realClock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const pvcs = this.#o.informers.informerFor(pvcsPath);
    const pods = this.#o.informers.informerFor(podsPath);
    this.#pvcs = pvcs;
    this.#pods = pods;
    pods.store.ensureIndex(podPvcIndex, podPvcKeys);
    const onClaim = (pvc: JsonObject): void => {
      if (
        needToAddFinalizer(pvc, pvcProtectionFinalizer) ||
        isDeletionCandidate(pvc, pvcProtectionFinalizer)
      ) {
        this.#queue.add(keyFor(namespace(pvc), name(pvc)));
      }
    };
    const regs = [
      pvcs.addEventHandler({ onAdd: onClaim, onUpdate: (_old, pvc) => onClaim(pvc) }),
      pods.addEventHandler({
        onAdd: (pod) => this.#enqueueClaims(pod, false),
        onUpdate: (old, pod) => {
          this.#enqueueClaims(pod, false);
          // An update may hide a deletion and a re-creation under the same name.
          if (uid(old) !== uid(pod)) this.#enqueueClaims(old, true);
        },
        onDelete: (pod) => this.#enqueueClaims(pod, true),
      }),
    ];
    try {
      if (!(await informersSynced([pvcs, pods], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 1, (key) => this.#process(key, signal), signal);
    } finally {
      for (const r of regs) r.remove();
    }
  }

  /** enqueuePVCs: only pods that may have stopped using their claims matter. */
  #enqueueClaims(pod: JsonObject, deleted: boolean): void {
    if (!deleted && !isPodTerminated(pod) && nodeName(pod) !== '') return;
    for (const c of podClaims(pod)) this.#queue.add(keyFor(namespace(pod), c.claim));
  }

  async #process(key: string, signal: AbortSignal): Promise<undefined> {
    const pvc = this.#pvcs?.store.get(key);
    if (pvc === undefined) return undefined;
    if (isDeletionCandidate(pvc, pvcProtectionFinalizer)) {
      if (!(await this.#isBeingUsed(pvc, signal))) {
        await this.#update(withoutFinalizer(pvc, pvcProtectionFinalizer), signal);
        return undefined;
      }
    }
    if (needToAddFinalizer(pvc, pvcProtectionFinalizer)) {
      await this.#update(withFinalizer(pvc, pvcProtectionFinalizer), signal);
    }
    return undefined;
  }

  /** isBeingUsed: the informer's pods first, then a live list to be sure. */
  async #isBeingUsed(pvc: JsonObject, signal: AbortSignal): Promise<boolean> {
    const cached = this.#pods?.store.byIndex(podPvcIndex, `${namespace(pvc)}/${name(pvc)}`) ?? [];
    if (cached.some((pod) => podUsesPVC(pod, pvc))) return true;
    const list = await this.#o.client.request(
      'GET',
      `/api/v1/namespaces/${encodeURIComponent(namespace(pvc))}/pods`,
      { signal },
    );
    return arr(list['items']).some((pod) => isJsonObject(pod) && podUsesPVC(pod, pvc));
  }

  async #update(pvc: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('PUT', claimPath(namespace(pvc), name(pvc)), {
        body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...pvc },
        signal,
      });
    } catch (err) {
      // Gone already: nothing left to protect.
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
  }
}
