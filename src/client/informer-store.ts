/**
 * An informer's local store: the last known state of every object of a collection, keyed
 * `namespace/name` (`name` when cluster-scoped). Readers get the objects themselves: treat them
 * as read-only.
 */
import type { JsonObject } from '../util/json.js';
import { objectKey, resourceVersionOf } from './object-meta.js';

/** What handlers and controllers read. */
export interface ReadonlyStore {
  /** The object at `key` (see `keyFor`), or undefined. */
  get(key: string): JsonObject | undefined;
  list(): JsonObject[];
  keys(): string[];
  readonly size: number;
}

/** What a relist changed, in the order the informer tells its handlers. */
export interface ReplaceResult {
  readonly added: readonly JsonObject[];
  readonly updated: readonly { readonly old: JsonObject; readonly current: JsonObject }[];
  /** Objects absent from the new list, in their last known state. */
  readonly deleted: readonly JsonObject[];
}

export class InformerStore implements ReadonlyStore {
  readonly #items = new Map<string, JsonObject>();

  get(key: string): JsonObject | undefined {
    return this.#items.get(key);
  }

  list(): JsonObject[] {
    return [...this.#items.values()];
  }

  keys(): string[] {
    return [...this.#items.keys()];
  }

  get size(): number {
    return this.#items.size;
  }

  /** Stores `obj`; returns the state it replaced, if any. */
  upsert(obj: JsonObject): JsonObject | undefined {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    return old;
  }

  /** Removes `obj`'s key; returns the state it had, if any. */
  delete(obj: JsonObject): JsonObject | undefined {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    this.#items.delete(key);
    return old;
  }

  /**
   * Makes the store hold exactly `items` (a fresh list). Objects whose resourceVersion did not
   * change are not reported as updated; objects gone from the list are reported deleted with the
   * state the store last had (client-go's DeletedFinalStateUnknown).
   */
  replace(items: readonly JsonObject[]): ReplaceResult {
    const fresh = new Map<string, JsonObject>();
    for (const obj of items) fresh.set(objectKey(obj), obj);
    const added: JsonObject[] = [];
    const updated: { old: JsonObject; current: JsonObject }[] = [];
    const deleted: JsonObject[] = [];
    for (const [key, old] of this.#items) {
      if (!fresh.has(key)) {
        this.#items.delete(key);
        deleted.push(old);
      }
    }
    for (const [key, current] of fresh) {
      const old = this.#items.get(key);
      this.#items.set(key, current);
      if (old === undefined) added.push(current);
      else if (resourceVersionOf(old) !== resourceVersionOf(current) || resourceVersionOf(current) === '') {
        updated.push({ old, current });
      }
    }
    return { added, updated, deleted };
  }
}
