/**
 * `apiserver_storage_objects`: every period (upstream's --etcd-count-metric-poll-period, one
 * minute) each stored resource's objects are counted in storage and the gauge set, labelled
 * "<resource>.<group>" ("pods", "deployments.apps") as upstream's DefaultQualifiedResource; a
 * failed count reports -1, as upstream's does. Served versions sharing one store count once.
 */
import type { GenericStore } from '../../registry/generic/store.js';
import { storageObjects } from './definitions.js';

export class StorageObjectCounter {
  readonly #stores: () => Iterable<GenericStore>;
  readonly #periodMs: number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #counted = new Set<string>();
  #running: Promise<void> | undefined;

  readonly #onCount: ((label: string, count: number) => void) | undefined;

  /** `onCount` also gets every count (API Priority and Fairness weighs lists by them). */
  constructor(
    stores: () => Iterable<GenericStore>,
    periodMs: number,
    onCount?: (label: string, count: number) => void,
  ) {
    this.#stores = stores;
    this.#periodMs = periodMs;
    this.#onCount = onCount;
  }

  /** Counts now and then every period. */
  start(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#timer = setInterval(() => void this.count(), this.#periodMs);
    this.#timer.unref();
    void this.count();
  }

  /** Stops counting (storage may close after this resolves). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  /** One round of counts (skipped while the previous one is still running). */
  count(): Promise<void> {
    this.#running ??= this.#countAll().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #countAll(): Promise<void> {
    const seen = new Set<string>();
    for (const store of new Set(this.#stores())) {
      if (this.#stopped) return;
      const { group, resource } = store.resource.info;
      const label = group === '' ? resource : `${resource}.${group}`;
      if (seen.has(label)) continue;
      seen.add(label);
      let n: number;
      try {
        n = await store.storage.count(store.prefix(''));
      } catch {
        n = -1;
      }
      storageObjects.cell(label).set(n);
      this.#onCount?.(label, n);
    }
    for (const label of this.#counted) if (!seen.has(label)) storageObjects.remove(label);
    this.#counted = seen;
  }
}
