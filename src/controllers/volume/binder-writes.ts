/**
 * The PV controller's writes (upstream v1.27 pv_controller.go): binding a volume and a claim to
 * each other in upstream's order (volume claimRef, volume phase Bound, claim volumeName and
 * annotations, claim phase Bound with the volume's capacity and access modes), rolling a
 * volume's binding back, and phase changes with their events. Every write refreshes the
 * controller's own cache (NewestCache).
 */
import { keyFor } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import type { ControllerEvents } from '../util/events.js';
import { annotations, meta, name, namespace, obj, str, uid } from '../util/objects.js';
import type { NewestCache } from './newest-cache.js';
import { annBindCompleted, annBoundByController, isVolumeBoundToClaim } from './volume-matching.js';

const annPreResizeCapacity = 'volume.alpha.kubernetes.io/pre-resize-capacity';

export interface BinderWritesOptions {
  readonly client: Pick<RestClient, 'request'>;
  readonly volumes: NewestCache;
  readonly claims: NewestCache;
  readonly events: ControllerEvents;
  readonly signal: AbortSignal;
}

export const volumePath = (n: string): string => `/api/v1/persistentvolumes/${encodeURIComponent(n)}`;
export const claimPath = (ns: string, n: string): string =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/persistentvolumeclaims/${encodeURIComponent(n)}`;

export const claimKey = (pvc: JsonObject): string => keyFor(namespace(pvc), name(pvc));

function setAnnotation(o: JsonObject, key: string, value: string): void {
  const m = meta(o);
  m['annotations'] = { ...annotations(o), [key]: value };
  o['metadata'] = m;
}

/** ref.GetReference of a claim. */
export function claimReference(pvc: JsonObject): JsonObject {
  return {
    kind: 'PersistentVolumeClaim',
    namespace: namespace(pvc),
    name: name(pvc),
    uid: uid(pvc),
    apiVersion: 'v1',
    resourceVersion: str(meta(pvc)['resourceVersion']),
  };
}

export class BinderWrites {
  readonly #o: BinderWritesOptions;

  constructor(o: BinderWritesOptions) {
    this.#o = o;
  }

  async #putVolume(pv: JsonObject, status: boolean): Promise<JsonObject> {
    const path = `${volumePath(name(pv))}${status ? '/status' : ''}`;
    const saved = await this.#o.client.request('PUT', path, {
      body: { ...pv, apiVersion: 'v1', kind: 'PersistentVolume' },
      signal: this.#o.signal,
    });
    this.#o.volumes.update(name(saved), saved);
    return saved;
  }

  async putClaim(pvc: JsonObject, status = false): Promise<JsonObject> {
    const path = `${claimPath(namespace(pvc), name(pvc))}${status ? '/status' : ''}`;
    const saved = await this.#o.client.request('PUT', path, {
      body: { ...pvc, apiVersion: 'v1', kind: 'PersistentVolumeClaim' },
      signal: this.#o.signal,
    });
    this.#o.claims.update(claimKey(saved), saved);
    return saved;
  }

  /** updateVolumePhase: a status write when the phase changes (message "" clears it). */
  async updateVolumePhase(pv: JsonObject, phase: string, message = ''): Promise<JsonObject> {
    if (str(obj(pv['status'])['phase']) === phase) return pv;
    const clone = structuredClone(pv);
    const status: JsonObject = { ...obj(clone['status']), phase };
    if (message === '') delete status['message'];
    else status['message'] = message;
    clone['status'] = status;
    return this.#putVolume(clone, true);
  }

  /** updateVolumePhaseWithEvent: the event only when the phase really changes. */
  async updateVolumePhaseWithEvent(
    pv: JsonObject,
    phase: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<JsonObject> {
    if (str(obj(pv['status'])['phase']) === phase) return pv;
    const saved = await this.updateVolumePhase(pv, phase, message);
    this.#o.events.event(saved, type, reason, message);
    return saved;
  }

  /**
   * updateClaimStatus: the phase, and the volume's access modes and (when the claim becomes
   * Bound) capacity — or neither when there is no volume.
   */
  async updateClaimStatus(pvc: JsonObject, phase: string, pv: JsonObject | undefined): Promise<JsonObject> {
    const old = obj(pvc['status']);
    const status: JsonObject = { ...old };
    let dirty = false;
    if (str(old['phase']) !== phase) {
      status['phase'] = phase;
      dirty = true;
    }
    if (pv === undefined) {
      for (const k of ['accessModes', 'capacity']) {
        if (old[k] !== undefined && old[k] !== null) {
          delete status[k];
          dirty = true;
        }
      }
    } else {
      const spec = obj(pv['spec']);
      if (JSON.stringify(old['accessModes'] ?? null) !== JSON.stringify(spec['accessModes'] ?? null)) {
        if (spec['accessModes'] === undefined) delete status['accessModes'];
        else status['accessModes'] = spec['accessModes'];
        dirty = true;
      }
      // Capacity only when the claim becomes Bound: a later difference may be intentional.
      if (str(old['phase']) !== phase) {
        const volumeCap = obj(spec['capacity'])['storage'];
        if (volumeCap === undefined) {
          throw new Error(`PersistentVolume "${name(pv)}" is without a storage capacity`);
        }
        const preResize = annotations(pv)[annPreResizeCapacity];
        if (preResize !== undefined) {
          status['capacity'] = { ...obj(old['capacity']), storage: preResize };
          dirty = true;
        } else if (JSON.stringify(obj(old['capacity'])['storage'] ?? null) !== JSON.stringify(volumeCap)) {
          status['capacity'] = spec['capacity'] ?? null;
          dirty = true;
        }
      }
    }
    if (!dirty) return pvc;
    const clone = structuredClone(pvc);
    clone['status'] = status;
    return this.putClaim(clone, true);
  }

  /** updateClaimStatusWithEvent: the event only when the phase really changes. */
  async updateClaimStatusWithEvent(
    pvc: JsonObject,
    phase: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<JsonObject> {
    if (str(obj(pvc['status'])['phase']) === phase) return pvc;
    const saved = await this.updateClaimStatus(pvc, phase, undefined);
    this.#o.events.event(saved, type, reason, message);
    return saved;
  }

  /** bindVolumeToClaim (GetBindVolumeToClaim): claimRef, and bound-by-controller when we chose it. */
  async bindVolumeToClaim(pv: JsonObject, pvc: JsonObject): Promise<JsonObject> {
    const byController = !isVolumeBoundToClaim(pv, pvc);
    const clone = structuredClone(pv);
    let dirty = false;
    const ref = obj(pv['spec'])['claimRef'];
    if (
      !isJsonObject(ref) ||
      str(ref['name']) !== name(pvc) ||
      str(ref['namespace']) !== namespace(pvc) ||
      str(ref['uid']) !== uid(pvc)
    ) {
      clone['spec'] = { ...obj(clone['spec']), claimRef: claimReference(pvc) };
      dirty = true;
    }
    if (byController && annotations(clone)[annBoundByController] === undefined) {
      setAnnotation(clone, annBoundByController, 'yes');
      dirty = true;
    }
    return dirty ? this.#putVolume(clone, false) : pv;
  }

  /** bindClaimToVolume: volumeName (bound-by-controller when we chose it) and bind-completed. */
  async bindClaimToVolume(pvc: JsonObject, pv: JsonObject): Promise<JsonObject> {
    const clone = structuredClone(pvc);
    let dirty = false;
    if (name(pv) !== str(obj(pvc['spec'])['volumeName'])) {
      clone['spec'] = { ...obj(clone['spec']), volumeName: name(pv) };
      if (annotations(clone)[annBoundByController] === undefined) {
        setAnnotation(clone, annBoundByController, 'yes');
      }
      dirty = true;
    }
    if (annotations(clone)[annBindCompleted] === undefined) {
      setAnnotation(clone, annBindCompleted, 'yes');
      dirty = true;
    }
    return dirty ? this.putClaim(clone) : pvc;
  }

  /** bind: the volume first (spec, then phase), then the claim (spec, then status). */
  async bind(pv: JsonObject, pvc: JsonObject): Promise<void> {
    let volume = await this.bindVolumeToClaim(pv, pvc);
    volume = await this.updateVolumePhase(volume, 'Bound');
    const claim = await this.bindClaimToVolume(pvc, volume);
    await this.updateClaimStatus(claim, 'Bound', volume);
  }

  /**
   * unbindVolume: a binding the controller made is dropped with its annotation; a user's
   * pre-binding keeps the claim's name and loses only the uid. Then the volume is Available.
   */
  async unbindVolume(pv: JsonObject): Promise<void> {
    const clone = structuredClone(pv);
    const spec = { ...obj(clone['spec']) };
    if (annotations(pv)[annBoundByController] !== undefined) {
      delete spec['claimRef'];
      const m = meta(clone);
      const rest = { ...annotations(pv) };
      delete rest[annBoundByController];
      if (Object.keys(rest).length === 0) delete m['annotations'];
      else m['annotations'] = rest;
    } else {
      const ref = { ...obj(spec['claimRef']) };
      delete ref['uid'];
      spec['claimRef'] = ref;
    }
    clone['spec'] = spec;
    const saved = await this.#putVolume(clone, false);
    await this.updateVolumePhase(saved, 'Available');
  }
}
