/**
 * A least-recently-used cache of at most `size` entries (k8s.io/utils/lru): reading an entry
 * makes it the most recent; adding past the size drops the least recent.
 */
export class LruCache<K, V> {
  readonly #size: number;
  readonly #entries = new Map<K, V>();

  constructor(size: number) {
    this.#size = size;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  add(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#size) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }
}
