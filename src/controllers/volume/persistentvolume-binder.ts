/**
 * The persistent volume binder (upstream v1.27 pkg/controller/volume/persistentvolume, the
 * "PersistentVolumeController"), `--controllers` name `persistentvolume-binder`. Claims and
 * volumes each have one queue and one worker (syncClaim is not reentrant) and are all synced
 * again every 15 s (--pvclaimbinder-sync-period); the controller keeps its own newest copy of
 * every volume and claim (NewestCache).
 *
 * - An unbound claim without spec.volumeName is bound to the best match (volume-matching.ts); with
 *   none, a claim without any class gets the default class (RetroactiveDefaultStorageClass), a
 *   WaitForFirstConsumer claim gets a WaitForFirstConsumer (or WaitForPodScheduled) event, a claim
 *   with a class is provisioned, and a claim without one gets FailedBinding; it stays Pending.
 * - A claim asking for spec.volumeName binds to it when it is free and fits (VolumeMismatch
 *   otherwise), finishes a binding the volume already has, and waits (FailedBinding) while
 *   the volume is bound to another claim. A volume pre-bound by claimRef is found by matching.
 * - A bound claim whose volume is gone or belongs to another claim is Lost.
 * - A volume without claimRef (or pre-bound without uid) is Available; one whose claim is gone is
 *   Released and reclaimed by its policy: Retain keeps it; Delete deletes the PV object (upstream
 *   calls the in-tree volume plugin's deleter first — no plugin runs here, so the object is simply
 *   deleted; a volume provisioned by an external provisioner is left to it); Recycle has no
 *   recycler plugin here, so the volume becomes Failed with VolumeFailedRecycle, as upstream does
 *   when no plugin can recycle the volume.
 * - Dynamic provisioning runs no in-tree plugin: a class whose provisioner is external (or an
 *   in-tree one migrated to CSI) gets the storage-provisioner annotations on the claim and an
 *   ExternalProvisioning event, and the claim waits for someone to create the volume; another
 *   `kubernetes.io/` provisioner gets ProvisioningFailed.
 *
 * Left out: CSI migration annotations (`pv.kubernetes.io/migrated-to`), in-tree provisioning,
 * recycling and deleting plugins, the HonorPVReclaimPolicy finalizers (alpha, off), metrics, and
 * the operation goroutine map (reclaim and provisioning run inline in the worker).
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
import { noEvents } from '../util/events.js';
import type { ControllerEvents } from '../util/events.js';
import { annotations, deleting, name, namespace, obj, str, uid } from '../util/objects.js';
import { nodeName } from '../util/pods.js';
import { controllerQueue, informersSynced } from '../util/workers.js';
import { BinderWrites, claimKey, claimPath, volumePath } from './binder-writes.js';
import { NewestCache } from './newest-cache.js';
import { isPodTerminated, podPvcIndex, podPvcKeys } from './protection.js';
import { defaultClass, isDelayBindingMode, provisioningFor } from './storage-classes.js';
import {
  annBetaStorageProvisioner,
  annBindCompleted,
  annBoundByController,
  annDynamicallyProvisioned,
  annSelectedNode,
  annStorageProvisioner,
  claimClass,
  claimHasClass,
  findBestMatchForClaim,
  isVolumeBoundToClaim,
  volumeModeMismatch,
  volumeUnfitReason,
} from './volume-matching.js';

export interface PersistentVolumeBinderOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  /** Events as `persistentvolume-controller` (core/v1 Events). */
  readonly events?: ControllerEvents;
  readonly onError?: (err: unknown) => void;
  readonly clock?: Clock;
  /** --pvclaimbinder-sync-period (15 s). */
  readonly syncPeriodMs?: number;
  /** --enable-dynamic-provisioning (true). */
  readonly dynamicProvisioning?: boolean;
  /** RetroactiveDefaultStorageClass (beta, on in v1.27). */
  readonly retroactiveDefaultStorageClass?: boolean;
}

const pvsPath = '/api/v1/persistentvolumes';
const pvcsPath = '/api/v1/persistentvolumeclaims';
const classesPath = '/apis/storage.k8s.io/v1/storageclasses';
const podsPath = '/api/v1/pods';

function phaseOf(o: JsonObject): string {
  return str(obj(o['status'])['phase']);
}

function claimRefOf(pv: JsonObject): JsonObject | undefined {
  const ref = obj(pv['spec'])['claimRef'];
  return isJsonObject(ref) ? ref : undefined;
}

function refKey(ref: JsonObject): string {
  return keyFor(str(ref['namespace']), str(ref['name']));
}

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}

export class PersistentVolumeBinder {
  readonly #o: PersistentVolumeBinderOptions;
  readonly #clock: Clock;
  readonly #events: ControllerEvents;
  readonly #claimQueue: WorkQueue;
  readonly #volumeQueue: WorkQueue;
  readonly #volumes = new NewestCache();
  readonly #claims = new NewestCache();
  #pvs: SharedInformer | undefined;
  #pvcs: SharedInformer | undefined;
  #classes: SharedInformer | undefined;
  #pods: SharedInformer | undefined;

  constructor(o: PersistentVolumeBinderOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#events = o.events ?? noEvents;
    this.#claimQueue = controllerQueue('PersistentVolumeClaim', o.onError, this.#clock);
    this.#volumeQueue = controllerQueue('PersistentVolume', o.onError, this.#clock);
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const f = this.#o.informers;
    const pvs = (this.#pvs = f.informerFor(pvsPath));
    const pvcs = (this.#pvcs = f.informerFor(pvcsPath));
    const classes = (this.#classes = f.informerFor(classesPath));
    const pods = (this.#pods = f.informerFor(podsPath));
    pods.store.ensureIndex(podPvcIndex, podPvcKeys);
    const volume = (pv: JsonObject): void => this.#volumeQueue.add(name(pv));
    const claim = (pvc: JsonObject): void => this.#claimQueue.add(claimKey(pvc));
    const regs = [
      pvs.addEventHandler({ onAdd: volume, onUpdate: (_o, pv) => volume(pv), onDelete: volume }),
      pvcs.addEventHandler({ onAdd: claim, onUpdate: (_o, pvc) => claim(pvc), onDelete: claim }),
    ];
    try {
      if (!(await informersSynced([pvs, pvcs, classes, pods], signal))) return;
      // initializeCaches
      for (const pv of pvs.store.list()) this.#volumes.update(name(pv), pv);
      for (const pvc of pvcs.store.list()) this.#claims.update(claimKey(pvc), pvc);
      const writes = new BinderWrites({
        client: this.#o.client,
        volumes: this.#volumes,
        claims: this.#claims,
        events: this.#events,
        signal,
      });
      await Promise.all([
        this.#resync(signal),
        this.#volumeQueue.run((key) => this.#volumeWorker(key, writes, signal), signal),
        this.#claimQueue.run((key) => this.#claimWorker(key, writes), signal),
      ]);
    } finally {
      for (const r of regs) r.remove();
    }
  }

  async #resync(signal: AbortSignal): Promise<void> {
    const period = this.#o.syncPeriodMs ?? 15_000;
    for (;;) {
      await this.#clock.sleep(period, signal);
      if (signal.aborted) return;
      for (const pvc of this.#pvcs?.store.list() ?? []) this.#claimQueue.add(claimKey(pvc));
      for (const pv of this.#pvs?.store.list() ?? []) this.#volumeQueue.add(name(pv));
    }
  }

  /** A conflict means a newer version is on its way: the informer's event brings it back. */
  async #quietly(work: () => Promise<void>): Promise<undefined> {
    try {
      await work();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
    return undefined;
  }

  #volumeWorker(key: string, w: BinderWrites, signal: AbortSignal): Promise<undefined> {
    return this.#quietly(async () => {
      const pv = this.#pvs?.store.get(key);
      if (pv !== undefined) {
        if (this.#volumes.update(key, pv)) await this.#syncVolume(pv, w, signal);
        return;
      }
      // deleteVolume: the claim learns it lost its volume.
      const cached = this.#volumes.get(key);
      if (cached === undefined) return;
      this.#volumes.delete(key);
      const ref = claimRefOf(cached);
      if (ref !== undefined) this.#claimQueue.add(refKey(ref));
    });
  }

  #claimWorker(key: string, w: BinderWrites): Promise<undefined> {
    return this.#quietly(async () => {
      const pvc = this.#pvcs?.store.get(key);
      if (pvc !== undefined) {
        if (this.#claims.update(key, pvc)) await this.#syncClaim(pvc, w);
        return;
      }
      // deleteClaim: its volume is released without waiting for the next sync.
      const cached = this.#claims.get(key);
      if (cached === undefined) return;
      this.#claims.delete(key);
      const volumeName = str(obj(cached['spec'])['volumeName']);
      if (volumeName !== '') this.#volumeQueue.add(volumeName);
    });
  }

  async #syncClaim(pvc: JsonObject, w: BinderWrites): Promise<void> {
    if (annotations(pvc)[annBindCompleted] === undefined) await this.#syncUnboundClaim(pvc, w);
    else await this.#syncBoundClaim(pvc, w);
  }

  async #syncUnboundClaim(pvc: JsonObject, w: BinderWrites): Promise<void> {
    const volumeName = str(obj(pvc['spec'])['volumeName']);
    if (volumeName === '') {
      const className = claimClass(pvc);
      const delayBinding = isDelayBindingMode(className, this.#classes?.store.get(className));
      const pv = findBestMatchForClaim(pvc, this.#volumes.list(), delayBinding);
      if (pv !== undefined) {
        await w.bind(pv, pvc);
        return;
      }
      if (await this.#assignDefaultStorageClass(pvc, w)) return;
      if (delayBinding && annotations(pvc)[annSelectedNode] === undefined) {
        this.#eventForDelayBindingClaim(pvc);
      } else if (className !== '') {
        await this.#provisionClaim(pvc, className, w);
        return;
      } else {
        this.#events.event(
          pvc,
          'Normal',
          'FailedBinding',
          'no persistent volumes available for this claim and no storage class is set',
        );
      }
      await w.updateClaimStatus(pvc, 'Pending', undefined);
      return;
    }
    // The user asked for a specific volume.
    const pv = this.#volumes.get(volumeName);
    if (pv === undefined) {
      await w.updateClaimStatus(pvc, 'Pending', undefined);
      return;
    }
    if (claimRefOf(pv) === undefined) {
      const reason = volumeUnfitReason(pv, pvc);
      if (reason !== undefined) {
        this.#events.event(
          pvc,
          'Warning',
          'VolumeMismatch',
          `Cannot bind to requested volume "${name(pv)}": ${reason}`,
        );
        await w.updateClaimStatus(pvc, 'Pending', undefined);
        return;
      }
      await w.bind(pv, pvc);
      return;
    }
    if (isVolumeBoundToClaim(pv, pvc)) {
      await w.bind(pv, pvc);
      return;
    }
    this.#events.event(
      pvc,
      'Warning',
      'FailedBinding',
      `volume "${name(pv)}" already bound to a different claim.`,
    );
    if (annotations(pvc)[annBoundByController] === undefined) {
      await w.updateClaimStatus(pvc, 'Pending', undefined);
      return;
    }
    throw new Error(
      `invalid binding of claim "${claimKey(pvc)}" to volume "${volumeName}": volume already claimed by "${refKey(claimRefOf(pv) ?? {})}"`,
    );
  }

  async #syncBoundClaim(pvc: JsonObject, w: BinderWrites): Promise<void> {
    const volumeName = str(obj(pvc['spec'])['volumeName']);
    if (volumeName === '') {
      await w.updateClaimStatusWithEvent(
        pvc,
        'Lost',
        'Warning',
        'ClaimLost',
        'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
      );
      return;
    }
    const pv = this.#volumes.get(volumeName);
    if (pv === undefined) {
      await w.updateClaimStatusWithEvent(
        pvc,
        'Lost',
        'Warning',
        'ClaimLost',
        'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
      );
      return;
    }
    const ref = claimRefOf(pv);
    if (ref === undefined || str(ref['uid']) === uid(pvc)) {
      // Re-bind a volume that came unbound, or check all is set (usually nothing to write).
      await w.bind(pv, pvc);
      return;
    }
    await w.updateClaimStatusWithEvent(
      pvc,
      'Lost',
      'Warning',
      'ClaimMisbound',
      'Two claims are bound to the same volume, this one is bound incorrectly',
    );
  }

  /** emitEventForUnboundDelayBindingClaim. */
  #eventForDelayBindingClaim(pvc: JsonObject): void {
    const waiting = (this.#pods?.store.byIndex(podPvcIndex, claimKey(pvc)) ?? [])
      .filter((p) => !isPodTerminated(p) && nodeName(p) === '')
      .map((p) => name(p));
    if (waiting.length === 0) {
      this.#events.event(
        pvc,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
      );
    } else {
      const message =
        waiting.length > 1
          ? `waiting for pods ${waiting.join(',')} to be scheduled`
          : `waiting for pod ${waiting[0] ?? ''} to be scheduled`;
      this.#events.event(pvc, 'Normal', 'WaitForPodScheduled', message);
    }
  }

  /** assignDefaultStorageClass: true when the claim was given the default class. */
  async #assignDefaultStorageClass(pvc: JsonObject, w: BinderWrites): Promise<boolean> {
    if (this.#o.retroactiveDefaultStorageClass === false || claimHasClass(pvc)) return false;
    const cls = defaultClass(this.#classes?.store.list() ?? []);
    if (cls === undefined) return false;
    const clone = structuredClone(pvc);
    clone['spec'] = { ...obj(clone['spec']), storageClassName: name(cls) };
    await w.putClaim(clone);
    return true;
  }

  /** provisionClaim with no in-tree plugins: external provisioners only. */
  async #provisionClaim(pvc: JsonObject, className: string, w: BinderWrites): Promise<void> {
    if (this.#o.dynamicProvisioning === false) return;
    const cls = this.#classes?.store.get(className);
    if (cls === undefined) {
      this.#events.event(
        pvc,
        'Warning',
        'ProvisioningFailed',
        `storageclass.storage.k8s.io "${className}" not found`,
      );
      return;
    }
    const how = provisioningFor(cls);
    if (!how.external) {
      this.#events.event(pvc, 'Warning', 'ProvisioningFailed', how.error);
      return;
    }
    // setClaimProvisioner: tells the external provisioner the claim is its to provision.
    let claim = pvc;
    if (annotations(pvc)[annStorageProvisioner] !== how.provisioner) {
      const clone = structuredClone(pvc);
      clone['metadata'] = {
        ...obj(clone['metadata']),
        annotations: {
          ...annotations(pvc),
          [annBetaStorageProvisioner]: how.provisioner,
          [annStorageProvisioner]: how.provisioner,
        },
      };
      try {
        claim = await w.putClaim(clone);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.#events.event(pvc, 'Warning', 'ProvisioningFailed', `Error saving claim: ${message}`);
        throw err;
      }
    }
    this.#events.event(
      claim,
      'Normal',
      'ExternalProvisioning',
      `waiting for a volume to be created, either by external provisioner "${how.provisioner}" or manually created by system administrator`,
    );
  }

  async #syncVolume(pv: JsonObject, w: BinderWrites, signal: AbortSignal): Promise<void> {
    const ref = claimRefOf(pv);
    if (ref === undefined || str(ref['uid']) === '') {
      // Unused, or reserved for a claim whose sync will bind it.
      await w.updateVolumePhase(pv, 'Available');
      return;
    }
    let claim = await this.#claimOf(pv, ref, signal);
    if (claim !== undefined && uid(claim) !== str(ref['uid'])) {
      // The cached claim may be stale: ask the API server.
      claim = await this.#getClaim(ref, signal);
      if (claim !== undefined && uid(claim) !== str(ref['uid'])) claim = undefined;
    }
    let volume = pv;
    if (claim === undefined) {
      // The claim is gone: release the volume (a Failed one stays Failed) and reclaim it.
      const phase = phaseOf(volume);
      if (phase !== 'Released' && phase !== 'Failed') volume = await w.updateVolumePhase(volume, 'Released');
      await this.#reclaimVolume(volume, w, signal);
      return;
    }
    const claimVolume = str(obj(claim['spec'])['volumeName']);
    if (claimVolume === '') {
      if (volumeModeMismatch(claim, volume)) {
        this.#events.event(
          volume,
          'Warning',
          'VolumeMismatch',
          `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${name(claim)}" due to incompatible volumeMode.`,
        );
        this.#events.event(
          claim,
          'Warning',
          'VolumeMismatch',
          `Cannot bind PersistentVolume "${name(volume)}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
        );
        return;
      }
      // The claim's sync finishes (or re-establishes) the binding.
      this.#claimQueue.add(claimKey(claim));
      return;
    }
    if (claimVolume === name(volume)) {
      await w.updateVolumePhase(volume, 'Bound');
      return;
    }
    // The claim is bound to another volume.
    if (
      annotations(volume)[annDynamicallyProvisioned] !== undefined &&
      str(obj(volume['spec'])['persistentVolumeReclaimPolicy']) === 'Delete'
    ) {
      const phase = phaseOf(volume);
      if (phase !== 'Released' && phase !== 'Failed') volume = await w.updateVolumePhase(volume, 'Released');
      await this.#reclaimVolume(volume, w, signal);
      return;
    }
    // Ours: undo it; the user's pre-binding: keep the name, drop the uid.
    await w.unbindVolume(volume);
  }

  /** The claim a volume refers to: our cache, then (unless already released) the API server. */
  async #claimOf(pv: JsonObject, ref: JsonObject, signal: AbortSignal): Promise<JsonObject | undefined> {
    const cached = this.#claims.get(refKey(ref));
    if (cached !== undefined) return cached;
    const phase = phaseOf(pv);
    if (phase === 'Released' || phase === 'Failed') return undefined;
    return this.#pvcs?.store.get(refKey(ref)) ?? (await this.#getClaim(ref, signal));
  }

  async #getClaim(ref: JsonObject, signal: AbortSignal): Promise<JsonObject | undefined> {
    try {
      return await this.#o.client.request('GET', claimPath(str(ref['namespace']), str(ref['name'])), {
        signal,
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** isVolumeReleased: bound (with uid) to a claim that is gone or bound to another volume. */
  #isVolumeReleased(pv: JsonObject): boolean {
    const ref = claimRefOf(pv);
    if (ref === undefined || str(ref['uid']) === '') return false;
    const claim = this.#claims.get(refKey(ref));
    if (claim !== undefined && uid(claim) === str(ref['uid'])) {
      const bound = str(obj(claim['spec'])['volumeName']);
      return bound !== '' && bound !== name(pv);
    }
    return true;
  }

  /** reclaimVolume by the volume's persistentVolumeReclaimPolicy. */
  async #reclaimVolume(pv: JsonObject, w: BinderWrites, signal: AbortSignal): Promise<void> {
    if ((annotations(pv)['pv.kubernetes.io/migrated-to'] ?? '') !== '') return;
    const policy = str(obj(pv['spec'])['persistentVolumeReclaimPolicy']);
    if (policy === 'Retain') return;
    if (policy === 'Recycle') {
      await this.#recycle(pv, w, signal);
      return;
    }
    if (policy === 'Delete') {
      await this.#delete(pv, signal);
      return;
    }
    await w.updateVolumePhaseWithEvent(
      pv,
      'Failed',
      'Warning',
      'VolumeUnknownReclaimPolicy',
      'Volume has unrecognized PersistentVolumeReclaimPolicy',
    );
  }

  /** The volume as the API server has it now, or undefined (then the operation gives up). */
  async #fresh(pv: JsonObject, signal: AbortSignal): Promise<JsonObject | undefined> {
    try {
      return await this.#o.client.request('GET', volumePath(name(pv)), { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return undefined;
    }
  }

  /** recycleVolumeOperation without recycler plugins. */
  async #recycle(pv: JsonObject, w: BinderWrites, signal: AbortSignal): Promise<void> {
    const fresh = await this.#fresh(pv, signal);
    if (fresh === undefined || !this.#isVolumeReleased(fresh)) return;
    const ref = claimRefOf(pv);
    if (ref !== undefined) {
      // isVolumeUsed: pods that are not terminated still refer to the claim.
      const users = (this.#pods?.store.byIndex(podPvcIndex, refKey(ref)) ?? [])
        .filter((p) => !isPodTerminated(p))
        .map((p) => `${namespace(p)}/${name(p)}`)
        .sort();
      const claimCached = this.#claims.get(refKey(ref)) !== undefined;
      if (users.length > 0 && !claimCached) {
        this.#events.event(pv, 'Normal', 'VolumeFailedRecycle', `Volume is used by pods: ${users.join(',')}`);
        return;
      }
    }
    await w.updateVolumePhaseWithEvent(
      fresh,
      'Failed',
      'Warning',
      'VolumeFailedRecycle',
      'No recycler plugin found for the volume!',
    );
  }

  /**
   * deleteVolumeOperation: upstream asks the volume plugin to delete the storage, then deletes the
   * PV object. No plugin runs here: the object is deleted as if the plugin had succeeded. A volume
   * provisioned by an external provisioner is that provisioner's to delete.
   */
  async #delete(pv: JsonObject, signal: AbortSignal): Promise<void> {
    const fresh = await this.#fresh(pv, signal);
    if (fresh === undefined || deleting(fresh) || !this.#isVolumeReleased(fresh)) return;
    const provisionedBy = annotations(fresh)[annDynamicallyProvisioned] ?? '';
    if (provisionedBy !== '' && !provisionedBy.startsWith('kubernetes.io/')) return;
    try {
      await this.#o.client.request('DELETE', volumePath(name(fresh)), { signal });
    } catch (err) {
      // Tried again at the next sync.
      if (signal.aborted) throw err;
    }
  }
}
