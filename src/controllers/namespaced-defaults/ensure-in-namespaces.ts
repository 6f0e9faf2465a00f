/**
 * A controller that keeps one named object in every active namespace, recreating it when it is
 * deleted: upstream's service-account controller (`default` ServiceAccount) and root-CA publisher
 * (`kube-root-ca.crt` ConfigMap) both have this shape.
 */
import { nameOf, runInformer } from '../../client/informer.js';
import { ApiError } from '../../client/rest-client.js';
import type { RestClient } from '../../client/rest-client.js';
import { WorkQueue } from '../../client/workqueue.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export interface EnsureOptions {
  readonly client: RestClient;
  /** Collection path inside a namespace, e.g. `/api/v1/namespaces/{ns}/serviceaccounts`. */
  readonly collection: (namespace: string) => string;
  /** All-namespaces collection path of the kept kind, e.g. `/api/v1/serviceaccounts`. */
  readonly allNamespaces: string;
  readonly name: string;
  /** The object to create in `namespace`. */
  readonly build: (namespace: string) => JsonObject;
  readonly onError?: (err: unknown) => void;
}

function active(ns: JsonObject): boolean {
  const meta = ns['metadata'];
  const status = ns['status'];
  if (isJsonObject(meta) && meta['deletionTimestamp'] !== undefined) return false;
  return !(isJsonObject(status) && status['phase'] === 'Terminating');
}

export class EnsureInNamespaces {
  readonly #o: EnsureOptions;
  readonly #queue = new WorkQueue();
  readonly #active = new Set<string>();

  constructor(o: EnsureOptions) {
    this.#o = o;
  }

  async run(signal: AbortSignal): Promise<void> {
    const onError = this.#o.onError;
    await Promise.all([
      runInformer(
        {
          client: this.#o.client,
          path: '/api/v1/namespaces',
          onObject: (ns) => {
            const { name } = nameOf(ns);
            if (active(ns)) {
              this.#active.add(name);
              this.#queue.add(name);
            } else this.#active.delete(name);
          },
          onDelete: (ns) => this.#active.delete(nameOf(ns).name),
          ...(onError !== undefined ? { onError } : {}),
        },
        signal,
      ),
      runInformer(
        {
          client: this.#o.client,
          path: `${this.#o.allNamespaces}?fieldSelector=${encodeURIComponent(`metadata.name=${this.#o.name}`)}`,
          onObject: () => undefined,
          onDelete: (obj) => this.#queue.add(nameOf(obj).namespace),
          ...(onError !== undefined ? { onError } : {}),
        },
        signal,
      ),
      this.#queue.run((ns) => this.#ensure(ns, signal), signal),
    ]);
  }

  async #ensure(namespace: string, signal: AbortSignal): Promise<number | undefined> {
    if (!this.#active.has(namespace)) return undefined;
    const path = this.#o.collection(namespace);
    try {
      await this.#o.client.request('GET', `${path}/${encodeURIComponent(this.#o.name)}`, { signal });
      return undefined;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    try {
      await this.#o.client.request('POST', path, { body: this.#o.build(namespace), signal });
    } catch (err) {
      // Already there (a race), or the namespace began terminating: nothing to do.
      if (err instanceof ApiError && (err.code === 409 || err.code === 403 || err.code === 404))
        return undefined;
      throw err;
    }
    return undefined;
  }
}
