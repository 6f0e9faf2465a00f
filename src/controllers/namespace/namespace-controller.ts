/**
 * The namespace controller: when a namespace is deleted (Terminating), delete everything in it,
 * then remove the `kubernetes` finalizer through /finalize so the API server removes the
 * namespace. Talks to the cluster only through the client.
 */
import { ApiError } from '../../client/rest-client.js';
import type { RestClient } from '../../client/rest-client.js';
import { collectionPath, discoverResources } from '../../client/discovery.js';
import type { ServedResource } from '../../client/discovery.js';
import { runInformer } from '../../client/informer.js';
import { WorkQueue } from '../../client/workqueue.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export interface NamespaceControllerOptions {
  readonly client: RestClient;
  readonly onError?: (err: unknown) => void;
}

function terminating(ns: JsonObject): string | undefined {
  const meta = ns['metadata'];
  if (!isJsonObject(meta) || typeof meta['name'] !== 'string') return undefined;
  return meta['deletionTimestamp'] !== undefined ? meta['name'] : undefined;
}

function ignoreGone(err: unknown): void {
  if (err instanceof ApiError && (err.code === 404 || err.code === 405)) return;
  throw err;
}

export class NamespaceController {
  readonly #client: RestClient;
  readonly #queue = new WorkQueue();
  readonly #onError: (err: unknown) => void;

  constructor(o: NamespaceControllerOptions) {
    this.#client = o.client;
    this.#onError = o.onError ?? (() => {});
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const enqueue = (ns: JsonObject): void => {
      const name = terminating(ns);
      if (name !== undefined) this.#queue.add(name);
    };
    await Promise.all([
      runInformer(
        { client: this.#client, path: '/api/v1/namespaces', onObject: enqueue, onError: this.#onError },
        signal,
      ),
      this.#queue.run((ns) => this.#sync(ns, signal), signal),
    ]);
  }

  /** Deletes the namespace's content; returns a retry delay while content remains. */
  async #sync(name: string, signal: AbortSignal): Promise<number | undefined> {
    let ns: JsonObject;
    try {
      ns = await this.#client.request('GET', `/api/v1/namespaces/${encodeURIComponent(name)}`, { signal });
    } catch (err) {
      ignoreGone(err);
      return undefined;
    }
    if (terminating(ns) === undefined) return undefined;
    const resources = (await discoverResources(this.#client, signal)).filter((r) => r.namespaced);
    let remaining = 0;
    for (const r of resources) remaining += await this.#purge(r, name, signal);
    if (remaining > 0) return 1000;
    const spec = isJsonObject(ns['spec']) ? ns['spec'] : {};
    const finalizers = Array.isArray(spec['finalizers']) ? spec['finalizers'] : [];
    const body = { ...ns, spec: { ...spec, finalizers: finalizers.filter((f) => f !== 'kubernetes') } };
    try {
      await this.#client.request('PUT', `/api/v1/namespaces/${encodeURIComponent(name)}/finalize`, {
        body,
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === 409) return 100;
      ignoreGone(err);
    }
    return undefined;
  }

  /** Deletes one resource's objects in the namespace; returns how many are still there. */
  async #purge(r: ServedResource, namespace: string, signal: AbortSignal): Promise<number> {
    const path = collectionPath(r, namespace);
    if (r.verbs.includes('deletecollection')) {
      await this.#client.request('DELETE', path, { signal }).catch(ignoreGone);
    } else if (r.verbs.includes('delete') && r.verbs.includes('list')) {
      const list = await this.#client.request('GET', path, { signal });
      for (const item of Array.isArray(list['items']) ? list['items'] : []) {
        const itemName =
          isJsonObject(item) && isJsonObject(item['metadata']) ? item['metadata']['name'] : undefined;
        if (typeof itemName === 'string') {
          await this.#client
            .request('DELETE', `${path}/${encodeURIComponent(itemName)}`, { signal })
            .catch(ignoreGone);
        }
      }
    }
    if (!r.verbs.includes('list')) return 0;
    const left = await this.#client.request('GET', `${path}?limit=1`, { signal });
    const items = Array.isArray(left['items']) ? left['items'].length : 0;
    const more = isJsonObject(left['metadata']) ? Number(left['metadata']['remainingItemCount'] ?? 0) : 0;
    return items + more;
  }
}
