/**
 * The namespace controller: when a namespace is deleted (Terminating), delete everything in it,
 * then remove the `kubernetes` finalizer through /finalize so the API server removes the
 * namespace. Talks to the cluster only through the client; learns of namespaces from the shared
 * namespace informer.
 */
import { ApiError } from '../../client/api-error.js';
import { collectionPath, discoverResources } from '../../client/discovery.js';
import type { ServedResource } from '../../client/discovery.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import { WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export interface NamespaceControllerOptions {
  readonly client: RestClient;
  /** Where the namespace informer comes from (shared with other controllers). */
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** What re-checks of a namespace with content left wait on (default: the real clock). */
  readonly clock?: Clock;
}

/** The collection the controller follows (its informer is shared through the factory). */
const namespacesPath = '/api/v1/namespaces';

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
  readonly #informers: SharedInformerFactory;
  readonly #queue: WorkQueue;

  constructor(o: NamespaceControllerOptions) {
    this.#client = o.client;
    this.#informers = o.informers;
    const onError = o.onError;
    this.#queue = new WorkQueue({
      ...(onError !== undefined
        ? {
            onError: (err: unknown, ns: string) =>
              onError(new Error(`namespace ${ns}: ${err instanceof Error ? err.message : String(err)}`)),
          }
        : {}),
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
    });
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const enqueue = (ns: JsonObject): void => {
      const name = terminating(ns);
      if (name !== undefined) this.#queue.add(name);
    };
    const registration = this.#informers.informerFor(namespacesPath).addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, ns) => enqueue(ns),
    });
    try {
      await this.#queue.run((ns) => this.#sync(ns, signal), signal);
    } finally {
      registration.remove();
    }
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
