/**
 * An informer's local store: the last known state of every object of a collection, keyed
 * `namespace/name` (`name` when cluster-scoped), with indexes (client-go's Indexer): named
 * functions from an object to the values it is filed under; `namespace` is always there. Readers
 * get the objects themselves: treat them as read-only.
 */
import { jsonEqual } from '../util/json.js';
import { threadStrings } from '../util/string-interner.js';
import type { JsonObject } from '../util/json.js';
import { nameOf, objectKey, resourceVersionOf } from './object-meta.js';

/** The values an object is filed under in one index (e.g. its namespace, its owners' uids). */
export type IndexFunc = (obj: JsonObject) => readonly string[];

/** The index every store has: objects by `metadata.namespace`. */
export const namespaceIndex = 'namespace';

/** What handlers and controllers read. */
export interface ReadonlyStore {
  /** The object at `key` (see `keyFor`), or undefined. */
  get(key: string): JsonObject | undefined;
  list(): JsonObject[];
  keys(): string[];
  readonly size: number;
  /** The objects filed under `value` in index `name` (throws for an unknown index). */
  byIndex(name: string, value: string): JsonObject[];
  /** How many objects are filed under `value` in index `name` (throws for an unknown index). */
  indexSize(name: string, value: string): number;
  /** Adds an index over the objects present and future (client-go: AddIndexers). */
  addIndex(name: string, fn: IndexFunc): void;
  /** Adds the index unless one of that name exists (controllers sharing an informer). */
  ensureIndex(name: string, fn: IndexFunc): void;
}

interface Index {
  readonly fn: IndexFunc;
  /** value → keys. */
  readonly values: Map<string, Set<string>>;
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
  readonly #indexes = new Map<string, Index>([
    [namespaceIndex, { fn: (obj) => [nameOf(obj).namespace], values: new Map() }],
  ]);

  addIndex(name: string, fn: IndexFunc): void {
    if (this.#indexes.has(name)) throw new Error(`index ${name} already exists`);
    const index: Index = { fn, values: new Map() };
    this.#indexes.set(name, index);
    for (const [key, obj] of this.#items) file(index, key, obj);
  }

  ensureIndex(name: string, fn: IndexFunc): void {
    if (!this.#indexes.has(name)) this.addIndex(name, fn);
  }

  byIndex(name: string, value: string): JsonObject[] {
    const index = this.#indexes.get(name);
    if (index === undefined) throw new Error(`index ${name} does not exist`);
    const out: JsonObject[] = [];
    for (const key of index.values.get(value) ?? []) {
      const obj = this.#items.get(key);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  indexSize(name: string, value: string): number {
    const index = this.#indexes.get(name);
    if (index === undefined) throw new Error(`index ${name} does not exist`);
    return index.values.get(value)?.size ?? 0;
  }

  #set(key: string, obj: JsonObject, old: JsonObject | undefined): void {
    for (const index of this.#indexes.values()) {
      if (old !== undefined) unfile(index, key, old);
      file(index, key, obj);
    }
    this.#items.set(key, obj);
  }

  #remove(key: string, old: JsonObject): void {
    for (const index of this.#indexes.values()) unfile(index, key, old);
    this.#items.delete(key);
  }

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

  /**
   * Stores `obj`; returns the state it replaced, if any. An update whose spec equals the stored
   * one's takes that same spec object (`obj` is the store's from now on, so it is changed in place):
   * whoever still holds the older state (a kubelet's running pod, a handler) then shares it with
   * the newer instead of keeping a second copy, as most updates change status or metadata only.
   * Its repeated strings become the thread's shared copies (util/string-interner.ts).
   * Stored objects are read-only, as client-go's cache's are.
   */
  upsert(obj: JsonObject): JsonObject | undefined {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    if (old !== undefined) shareUnchangedSpec(old, obj);
    threadStrings.intern(obj, old);
    this.#set(key, obj, old);
    return old;
  }

  /** Removes `obj`'s key; returns the state it had, if any. */
  delete(obj: JsonObject): JsonObject | undefined {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    if (old !== undefined) this.#remove(key, old);
    return old;
  }

  /**
   * Makes the store hold exactly `items` (a fresh list). Objects whose resourceVersion did not
   * change are not reported as updated; objects gone from the list are reported deleted with the
   * state the store last had (client-go's DeletedFinalStateUnknown).
   */
  replace(items: readonly JsonObject[]): ReplaceResult {
    const fresh = new Map<string, JsonObject>();
    for (const obj of items) {
      threadStrings.intern(obj);
      fresh.set(objectKey(obj), obj);
    }
    const added: JsonObject[] = [];
    const updated: { old: JsonObject; current: JsonObject }[] = [];
    const deleted: JsonObject[] = [];
    for (const [key, old] of [...this.#items]) {
      if (!fresh.has(key)) {
        this.#remove(key, old);
        deleted.push(old);
      }
    }
    for (const [key, current] of fresh) {
      const old = this.#items.get(key);
      this.#set(key, current, old);
      if (old === undefined) added.push(current);
      else if (resourceVersionOf(old) !== resourceVersionOf(current) || resourceVersionOf(current) === '') {
        updated.push({ old, current });
      }
    }
    return { added, updated, deleted };
  }
}

function file(index: Index, key: string, obj: JsonObject): void {
  for (const value of index.fn(obj)) {
    let keys = index.values.get(value);
    if (keys === undefined) index.values.set(value, (keys = new Set()));
    keys.add(key);
  }
}

function unfile(index: Index, key: string, obj: JsonObject): void {
  for (const value of index.fn(obj)) {
    const keys = index.values.get(value);
    if (keys === undefined) continue;
    keys.delete(key);
    if (keys.size === 0) index.values.delete(value);
  }
}

/** Gives `obj` the spec object of `old` when the two specs are equal. */
function shareUnchangedSpec(old: JsonObject, obj: JsonObject): void {
  const before = old['spec'];
  const after = obj['spec'];
  if (before !== undefined && after !== undefined && before !== after && jsonEqual(before, after))
    obj['spec'] = before;
}
