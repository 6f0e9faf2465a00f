/**
 * An in-memory mirror of one key prefix (list, then watch), for hot read paths such as
 * NamespaceLifecycle's namespace lookups on every create. Misses fall back to storage, so an object
 * created a moment ago is never reported missing while the watch catches up.
 */
import type { KubeObject } from '../machinery/object.js';
import type { ObjectStore } from './interfaces.js';
import { StorageError } from './errors.js';

export class ObjectCache {
  readonly #storage: ObjectStore;
  readonly #prefix: string;
  readonly #items = new Map<string, KubeObject>();
  #synced = false;

  constructor(storage: ObjectStore, prefix: string) {
    this.#storage = storage;
    this.#prefix = prefix;
  }

  /** Fills the cache and keeps it current until `signal` aborts (re-listing after errors). */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const list = await this.#storage.list({ prefix: this.#prefix });
        this.#items.clear();
        for (const item of list.items) this.#items.set(this.#prefix + (item.metadata.name ?? ''), item);
        this.#synced = true;
        for await (const ev of this.#storage.watch({
          key: this.#prefix,
          recursive: true,
          afterRevision: list.revision,
          signal,
        })) {
          const key = this.#prefix + (ev.object.metadata.name ?? '');
          if (ev.type === 'DELETED') this.#items.delete(key);
          else this.#items.set(key, ev.object);
        }
      } catch (err) {
        this.#synced = false;
        // Compacted under the watch (a snapshot restore): list again at once.
        if (err instanceof StorageError && err.code === 'Expired') continue;
        if (!signal.aborted) await new Promise((r) => setTimeout(r, 200).unref());
      }
    }
    this.#synced = false;
  }

  /** The object at `key` (a cluster-scoped key directly under the prefix). */
  async get(key: string): Promise<KubeObject | undefined> {
    const hit = this.#synced ? this.#items.get(key) : undefined;
    return hit ?? (await this.#storage.get(key));
  }
}
