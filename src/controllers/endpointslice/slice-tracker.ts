/**
 * Which EndpointSlice generations a controller has written and which slices it deleted (upstream
 * v1.27 pkg/controller/endpointslice/endpointslice_tracker.go), per owning Service: a sync whose
 * informer cache has not yet seen the controller's own writes is stale and retried, and informer
 * events for the controller's own writes do not trigger another sync.
 */
import type { ResourceEventHandler } from '../../client/shared-informer.js';
import type { JsonObject } from '../../util/json.js';
import { generation, meta, str, uid } from '../util/objects.js';

/** A generation recorded for a slice the controller deleted. */
const deletionExpected = -1;

export class EndpointSliceTracker {
  readonly #byService = new Map<string, Map<string, number>>();
  readonly #serviceOf: (slice: JsonObject) => string;

  /** `serviceOf`: the `namespace/name` key a slice belongs to (from its service-name label). */
  constructor(serviceOf: (slice: JsonObject) => string) {
    this.#serviceOf = serviceOf;
  }

  /**
   * The slice informer's handler both slice controllers use (upstream onEndpointSlice{Add,Update,
   * Delete}): a slice of ours that the tracker does not expect, a change of owner or of manager,
   * and a deletion the controller did not make queue the owner's key.
   */
  eventHandler(
    managedByUs: (slice: JsonObject) => boolean,
    enqueue: (key: string) => void,
  ): ResourceEventHandler {
    return {
      onAdd: (s) => {
        if (managedByUs(s) && this.shouldSync(s)) enqueue(this.#serviceOf(s));
      },
      onUpdate: (old, s) => {
        if (this.#serviceOf(old) !== this.#serviceOf(s)) {
          enqueue(this.#serviceOf(old));
          enqueue(this.#serviceOf(s));
        } else if (managedByUs(old) !== managedByUs(s) || (managedByUs(s) && this.shouldSync(s))) {
          enqueue(this.#serviceOf(s));
        }
      },
      onDelete: (s) => {
        if (managedByUs(s) && this.has(s) && !this.handleDeletion(s)) enqueue(this.#serviceOf(s));
      },
    };
  }

  #gens(slice: JsonObject): Map<string, number> {
    const key = this.#serviceOf(slice);
    let m = this.#byService.get(key);
    if (m === undefined) this.#byService.set(key, (m = new Map<string, number>()));
    return m;
  }

  has(slice: JsonObject): boolean {
    return this.#byService.get(this.#serviceOf(slice))?.has(uid(slice)) ?? false;
  }

  /** True unless this is a generation the controller wrote itself (or an older one). */
  shouldSync(slice: JsonObject): boolean {
    const g = this.#byService.get(this.#serviceOf(slice))?.get(uid(slice));
    return g === undefined || generation(slice) > g;
  }

  /** Records a slice the controller created or updated (the server's answer). */
  update(slice: JsonObject): void {
    this.#gens(slice).set(uid(slice), generation(slice));
  }

  expectDeletion(slice: JsonObject): void {
    this.#gens(slice).set(uid(slice), deletionExpected);
  }

  /** A slice was deleted: true when the controller expected it (no sync needed). */
  handleDeletion(slice: JsonObject): boolean {
    const m = this.#byService.get(this.#serviceOf(slice));
    const g = m?.get(uid(slice));
    m?.delete(uid(slice));
    return g === deletionExpected;
  }

  /** Whether the cached slices of Service `key` miss any write the controller made. */
  stale(key: string, cached: readonly JsonObject[]): boolean {
    const m = this.#byService.get(key);
    if (m === undefined) return false;
    const byUid = new Map(cached.map((s) => [str(meta(s)['uid']), s]));
    for (const [id, g] of m) {
      const s = byUid.get(id);
      if (g === deletionExpected) {
        if (s !== undefined) return true;
      } else if (s === undefined || generation(s) < g) {
        return true;
      }
    }
    return false;
  }

  deleteService(key: string): void {
    this.#byService.delete(key);
  }
}
