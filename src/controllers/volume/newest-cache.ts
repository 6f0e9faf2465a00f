/**
 * The PV controller's own cache of volumes or claims (upstream storeObjectUpdate): the newest
 * version it knows of each object, from the informer and from its own writes, so that an informer
 * still delivering an older version does not make it redo (and conflict on) a write it has made.
 */
import type { JsonObject } from '../../util/json.js';
import { resourceVersionOf } from '../../client/object-meta.js';

function revision(o: JsonObject): bigint | undefined {
  try {
    return BigInt(resourceVersionOf(o));
  } catch {
    return undefined;
  }
}

export class NewestCache {
  readonly #items = new Map<string, JsonObject>();

  get(key: string): JsonObject | undefined {
    return this.#items.get(key);
  }

  list(): JsonObject[] {
    return [...this.#items.values()];
  }

  /**
   * Keeps `o` unless the cached version is newer; true when `o` was kept (the same version
   * counts as new, so periodic syncs process it again).
   */
  update(key: string, o: JsonObject): boolean {
    const old = this.#items.get(key);
    if (old !== undefined) {
      const a = revision(old);
      const b = revision(o);
      if (a !== undefined && b !== undefined && a > b) return false;
    }
    this.#items.set(key, o);
    return true;
  }

  delete(key: string): void {
    this.#items.delete(key);
  }
}
