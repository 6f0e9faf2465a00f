/**
 * The PV protection controller (upstream v1.27 pkg/controller/volume/pvprotection),
 * `--controllers` name `pv-protection`. A volume being deleted keeps its
 * `kubernetes.io/pv-protection` finalizer while its status.phase is Bound (isBeingUsed: the PV
 * controller keeps the phase); otherwise the finalizer is removed. Volumes that are not being
 * deleted and lack the finalizer get it (the StorageObjectInUseProtection admission plugin
 * normally adds it).
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { SharedInformer } from '../../client/shared-informer.js';
import type { WorkQueue } from '../../client/workqueue.js';
import type { JsonObject } from '../../util/json.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { name, obj, str } from '../util/objects.js';
import { controllerQueue, informersSynced, runWorkers } from '../util/workers.js';
import {
  isDeletionCandidate,
  needToAddFinalizer,
  pvProtectionFinalizer,
  withFinalizer,
  withoutFinalizer,
} from './protection.js';

export interface PvProtectionControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** What the work queue's delays (requeue, failure backoff) wait on (default: the real clock). */
  readonly clock?: Clock;
  /** Keys processed in parallel (upstream runs one worker). */
  readonly workers?: number;
}

const pvsPath = '/api/v1/persistentvolumes';

/** isBeingUsed: the PV controller says the volume is Bound. */
export function isVolumeInUse(pv: JsonObject): boolean {
  return str(obj(pv['status'])['phase']) === 'Bound';
}

export class PvProtectionController {
  readonly #o: PvProtectionControllerOptions;
  readonly #queue: WorkQueue;
  #pvs: SharedInformer | undefined;

  constructor(o: PvProtectionControllerOptions) {
    this.#o = o;
    this.#queue = controllerQueue('PV protection of', o.onError, o.clock ?? realClock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const pvs = this.#o.informers.informerFor(pvsPath);
    this.#pvs = pvs;
    const onVolume = (pv: JsonObject): void => {
      if (needToAddFinalizer(pv, pvProtectionFinalizer) || isDeletionCandidate(pv, pvProtectionFinalizer)) {
        this.#queue.add(name(pv));
      }
    };
    const reg = pvs.addEventHandler({ onAdd: onVolume, onUpdate: (_old, pv) => onVolume(pv) });
    try {
      if (!(await informersSynced([pvs], signal))) return;
      await runWorkers(this.#queue, this.#o.workers ?? 1, (key) => this.#process(key, signal), signal);
    } finally {
      reg.remove();
    }
  }

  async #process(key: string, signal: AbortSignal): Promise<undefined> {
    const pv = this.#pvs?.store.get(key);
    if (pv === undefined) return undefined;
    if (isDeletionCandidate(pv, pvProtectionFinalizer) && !isVolumeInUse(pv)) {
      await this.#update(withoutFinalizer(pv, pvProtectionFinalizer), signal);
      return undefined;
    }
    if (needToAddFinalizer(pv, pvProtectionFinalizer)) {
      await this.#update(withFinalizer(pv, pvProtectionFinalizer), signal);
    }
    return undefined;
  }

  async #update(pv: JsonObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('PUT', `${pvsPath}/${encodeURIComponent(name(pv))}`, {
        body: { apiVersion: 'v1', kind: 'PersistentVolume', ...pv },
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
  }
}
