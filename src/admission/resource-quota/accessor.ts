/**
 * The quotas of a namespace as quota admission sees them (upstream quotaAccessor): the cached
 * state, each quota replaced by the copy this server last wrote when that one is newer (the cache
 * catches up a moment after a write), and status writes under optimistic concurrency.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { AdmissionDependencies } from '../dependencies.js';

const resourceQuotas = { group: '', resource: 'resourcequotas' };

function revision(o: KubeObject): number {
  const rv = Number(o.metadata.resourceVersion ?? '0');
  return Number.isFinite(rv) ? rv : 0;
}

export class QuotaAccessor {
  readonly #deps: AdmissionDependencies;
  /** ns/name → the quota as this server last wrote it. */
  readonly #written = new Map<string, KubeObject>();

  constructor(deps: AdmissionDependencies) {
    this.#deps = deps;
  }

  /** `live`: read storage, not the cache (after a write lost a race, the cache may lag the winner). */
  async quotas(namespace: string, live = false): Promise<KubeObject[]> {
    const cached =
      live && this.#deps.lookup.listLive !== undefined
        ? await this.#deps.lookup.listLive(resourceQuotas, namespace)
        : await this.#deps.lookup.list(resourceQuotas, namespace);
    return cached.map((q) => {
      const key = `${namespace}/${q.metadata.name ?? ''}`;
      const written = this.#written.get(key);
      if (written === undefined) return q;
      if (written.metadata.uid !== q.metadata.uid || revision(written) <= revision(q)) {
        this.#written.delete(key);
        return q;
      }
      return written;
    });
  }

  /** Writes the quota's status; rejects with the 409 when another write came first. */
  async updateStatus(quota: KubeObject): Promise<void> {
    const stored = await this.#deps.updateStatus(resourceQuotas, quota);
    this.#written.set(`${stored.metadata.namespace ?? ''}/${stored.metadata.name ?? ''}`, stored);
  }
}
