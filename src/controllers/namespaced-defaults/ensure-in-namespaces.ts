/**
 * A controller that keeps one named object in every active namespace, recreating it when it is
 * deleted: upstream's service-account controller (`default` ServiceAccount) and root-CA publisher
 * (`kube-root-ca.crt` ConfigMap) both have this shape. It follows the shared namespace informer
 * and an informer of the kept objects (all namespaces, selected by name), and creates what their
 * stores lack.
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor, nameOf } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import { WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export interface EnsureOptions {
  readonly client: RestClient;
  /** Where the informers come from (the namespace one is shared with other controllers). */
  readonly informers: SharedInformerFactory;
  /** Collection path inside a namespace, e.g. `/api/v1/namespaces/{ns}/serviceaccounts`. */
  readonly collection: (namespace: string) => string;
  /** All-namespaces collection path of the kept kind, e.g. `/api/v1/serviceaccounts`. */
  readonly allNamespaces: string;
  readonly name: string;
  /** The object to create in `namespace`. */
  readonly build: (namespace: string) => JsonObject;
  /**
   * When given, an existing object is also kept right: the object to update it to, or undefined
   * when it already is (upstream's root-CA publisher puts changed data back).
   */
  readonly reconcile?: (existing: JsonObject) => JsonObject | undefined;
  readonly onError?: (err: unknown) => void;
  /** What retries of failed creates wait on (default: the real clock). */
  readonly clock?: Clock;
}

/** The namespace informer's path: the same informer as the namespace controller's. */
const namespacesPath = '/api/v1/namespaces';

function active(ns: JsonObject): boolean {
  const meta = ns['metadata'];
  const status = ns['status'];
  if (isJsonObject(meta) && meta['deletionTimestamp'] !== undefined) return false;
  return !(isJsonObject(status) && status['phase'] === 'Terminating');
}

export class EnsureInNamespaces {
  readonly #o: EnsureOptions;
  readonly #queue: WorkQueue;

  constructor(o: EnsureOptions) {
    this.#o = o;
    const onError = o.onError;
    this.#queue = new WorkQueue({
      ...(onError !== undefined
        ? {
            onError: (err: unknown, ns: string) =>
              onError(
                new Error(
                  `${o.name} in namespace ${ns}: ${err instanceof Error ? err.message : String(err)}`,
                ),
              ),
          }
        : {}),
      ...(o.clock !== undefined ? { clock: o.clock } : {}),
    });
  }

  /** The informer of the kept objects: every namespace's, selected by name. */
  #keptPath(): string {
    return `${this.#o.allNamespaces}?fieldSelector=${encodeURIComponent(`metadata.name=${this.#o.name}`)}`;
  }

  /** Runs until `signal` aborts (the informer factory is started by the caller). */
  async run(signal: AbortSignal): Promise<void> {
    const enqueue = (ns: JsonObject): void => {
      if (active(ns)) this.#queue.add(nameOf(ns).name);
    };
    const registrations = [
      this.#o.informers.informerFor(namespacesPath).addEventHandler({
        onAdd: enqueue,
        onUpdate: (_old, ns) => enqueue(ns),
      }),
      this.#o.informers.informerFor(this.#keptPath()).addEventHandler({
        onDelete: (obj) => this.#queue.add(nameOf(obj).namespace),
        ...(this.#o.reconcile !== undefined
          ? { onUpdate: (_old: JsonObject, obj: JsonObject) => this.#queue.add(nameOf(obj).namespace) }
          : {}),
      }),
    ];
    try {
      await this.#queue.run((ns) => this.#ensure(ns, signal), signal);
    } finally {
      for (const r of registrations) r.remove();
    }
  }

  async #ensure(namespace: string, signal: AbortSignal): Promise<number | undefined> {
    const namespaces = this.#o.informers.informerFor(namespacesPath);
    const kept = this.#o.informers.informerFor(this.#keptPath());
    if (!(await namespaces.synced) || !(await kept.synced)) return undefined;
    const ns = namespaces.store.get(namespace);
    if (ns === undefined || !active(ns)) return undefined;
    const existing = kept.store.get(keyFor(namespace, this.#o.name));
    if (existing !== undefined) {
      const wanted = this.#o.reconcile?.(existing);
      if (wanted === undefined) return undefined;
      try {
        await this.#o.client.request(
          'PUT',
          `${this.#o.collection(namespace)}/${encodeURIComponent(this.#o.name)}`,
          { body: wanted, signal },
        );
      } catch (err) {
        // A newer copy (409) comes back through the informer; a deleted one (404) is recreated.
        if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return undefined;
        throw err;
      }
      return undefined;
    }
    try {
      await this.#o.client.request('POST', this.#o.collection(namespace), {
        body: this.#o.build(namespace),
        signal,
      });
    } catch (err) {
      // Already there (the store lags), or the namespace began terminating: nothing to do.
      if (err instanceof ApiError && (err.code === 409 || err.code === 403 || err.code === 404))
        return undefined;
      throw err;
    }
    return undefined;
  }
}
