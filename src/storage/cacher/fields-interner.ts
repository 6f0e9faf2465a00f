/**
 * One shared copy of each distinct part of `managedFields[].fieldsV1` among a watch cache's
 * objects. Objects made from one template by one manager carry the same field sets (every pod of a
 * ReplicaSet, every status the kubelet writes but for its pod IP), and a decoded set is a tree of
 * small objects: about half of a cached pod's memory (3.3 of 7 KiB). The cache's objects are never
 * changed in place (watchers, lists and the kept encodings share them), so one copy can stand for
 * all.
 *
 * Sets are shared bottom up: every `{}` leaf becomes one empty object, then each object whose keys
 * (in order) and children are those of one already held becomes that one. A set that differs in
 * one branch (a pod's `k:{"ip":...}`) still shares every other branch. Copies are held weakly: a
 * part no cached object uses any more is collected, and its bucket is cleared after it.
 */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

const fnvPrime = 0x01000193;

function hashString(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), fnvPrime);
  return h;
}

export class FieldsInterner {
  /** The empty object every `{}` leaf of a set becomes. */
  readonly #empty: JsonObject = Object.freeze({});
  /**
   * Shared parts by hash: most hashes have one part, held without an array (an array pushed to
   * once keeps room for 17: 184 bytes a part, most of this table's memory).
   */
  readonly #buckets = new Map<number, WeakRef<JsonObject> | WeakRef<JsonObject>[]>();
  /** The hash of each shared object (its children's hashes are part of it). */
  readonly #hashes = new WeakMap<JsonObject, number>();
  readonly #collected = new FinalizationRegistry<number>((hash) => this.#sweep(hash));
  #shared = 0;

  /** How many parts were replaced by a copy already held (a statistic, for tests). */
  get shared(): number {
    return this.#shared;
  }

  /** Distinct parts held (live or not yet swept), the empty leaf aside. */
  get size(): number {
    let n = 0;
    for (const b of this.#buckets.values()) n += Array.isArray(b) ? b.length : 1;
    return n;
  }

  /** Points `obj`'s managedFields entries at shared copies of their field sets. */
  intern(obj: KubeObject): void {
    const entries = obj.metadata.managedFields;
    if (!Array.isArray(entries)) return;
    for (const entry of entries) {
      if (!isJsonObject(entry)) continue;
      const fields = entry['fieldsV1'];
      if (!isJsonObject(fields)) continue;
      const shared = this.#canonical(fields);
      if (shared !== fields) entry['fieldsV1'] = shared;
    }
  }

  /** The shared copy of `node`, its children made shared first (in place: it is ours until held). */
  #canonical(node: JsonObject): JsonObject {
    if (this.#hashes.has(node)) return node;
    let h = 0x811c9dc5;
    let keys = 0;
    for (const k in node) {
      keys++;
      const child = node[k];
      h = hashString(h, k);
      if (isJsonObject(child)) {
        const shared = this.#canonical(child);
        if (shared !== child) node[k] = shared;
        h = Math.imul(h ^ (shared === this.#empty ? 0x7b7d : (this.#hashes.get(shared) ?? 0)), fnvPrime);
      } else {
        // Not a field set's shape (leaves are {}): hashed by its text, compared by value.
        h = hashString(h, JSON.stringify(child ?? null));
      }
      h = Math.imul(h ^ 0x2c, fnvPrime);
    }
    if (keys === 0) {
      if (node !== this.#empty) this.#shared++;
      return this.#empty;
    }
    const hash = h >>> 0;
    const bucket = this.#buckets.get(hash);
    if (bucket !== undefined) {
      const found = Array.isArray(bucket) ? this.#findIn(bucket, node) : this.#match(bucket, node);
      if (found !== undefined) return found;
    }
    const ref = new WeakRef(node);
    if (bucket === undefined) this.#buckets.set(hash, ref);
    else if (Array.isArray(bucket)) bucket.push(ref);
    else this.#buckets.set(hash, [bucket, ref]);
    this.#hashes.set(node, hash);
    this.#collected.register(node, hash);
    return node;
  }

  #findIn(bucket: readonly WeakRef<JsonObject>[], node: JsonObject): JsonObject | undefined {
    for (const ref of bucket) {
      const found = this.#match(ref, node);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The part `ref` holds if it is still alive and equal to `node`. */
  #match(ref: WeakRef<JsonObject>, node: JsonObject): JsonObject | undefined {
    const candidate = ref.deref();
    if (candidate === undefined || !sameChildren(candidate, node)) return undefined;
    this.#shared++;
    return candidate;
  }

  #sweep(hash: number): void {
    const bucket = this.#buckets.get(hash);
    if (bucket === undefined) return;
    const live = (Array.isArray(bucket) ? bucket : [bucket]).filter((ref) => ref.deref() !== undefined);
    if (live.length === 0) this.#buckets.delete(hash);
    else this.#buckets.set(hash, live.length === 1 ? live[0]! : live);
  }
}

/** The same keys in the same order, with the same (shared) children or equal other values. */
function sameChildren(a: JsonObject, b: JsonObject): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return false;
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (isJsonObject(x) || isJsonObject(y) || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}
