/**
 * The JSON of a watch cache's objects as list answers write them, kept so that a collection listed
 * again (a pager's next walk, `kubectl get` repeated, an informer relisting) is not encoded again.
 *
 * Encoding dominates a list answer from the cache: JSON.stringify of a 2 KB pod costs 7–11 µs on
 * Node 20, a page of 500 pods 4–5 ms, where finding the page costs microseconds. The cost is in
 * the objects' structure (many short keys), not in their size: objects whose encoding exceeds
 * `maxItemBytes` (long strings: Secrets, ConfigMaps with files) encode at memory speed and are not
 * kept.
 *
 * An entry lives exactly as long as its object is the cache's current state for its key: the cache
 * forgets an object when an event replaces or deletes it and forgets everything when it lists
 * again, and an object is remembered only while the cache still holds it (a list that raced an
 * update cannot leave an entry behind). Entries of all of a server's caches share one byte budget;
 * a cache over it drops its own oldest entries first. Cached objects are never modified in place
 * (every write stores a new object), so an entry cannot go stale (the list stream checks that
 * under test: apiserver/list-stream.ts).
 */
import type { KubeObject } from '../../machinery/object.js';

/**
 * What a list answer needs: the kept encoding of an object, and a way to keep one. Encodings are
 * JSON texts (strings: V8 keeps ASCII text at a byte per character and writes it into a response
 * buffer at memory speed), their size counted in characters.
 */
export interface ItemEncodings {
  /** The encoding kept for `obj`, if any. */
  get(obj: KubeObject): string | undefined;
  /** Keeps `text` as `obj`'s encoding, when the cache still holds `obj` and the budget allows. */
  remember(obj: KubeObject, text: string): void;
}

/** The bytes every cache's entries may hold together. */
export class EncodingBudget {
  readonly limitBytes: number;
  usedBytes = 0;

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }
}

/** Budget of a server's encoded list items when none is given: 32 MiB. */
export const defaultEncodingBudgetBytes = 32 * 1024 * 1024;

/** Items encoded larger than this (characters) are not kept: their cost is in copying strings. */
export const maxItemBytes = 16 * 1024;

export class EncodedItems implements ItemEncodings {
  readonly #budget: EncodingBudget;
  readonly #holds: (obj: KubeObject) => boolean;
  /** In the order they were kept: the first is evicted first. */
  readonly #entries = new Map<KubeObject, string>();
  #bytes = 0;

  constructor(o: { readonly budget: EncodingBudget; readonly holds: (obj: KubeObject) => boolean }) {
    this.#budget = o.budget;
    this.#holds = o.holds;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Characters (about bytes) this cache's entries hold. */
  get bytes(): number {
    return this.#bytes;
  }

  get(obj: KubeObject): string | undefined {
    return this.#entries.get(obj);
  }

  remember(obj: KubeObject, text: string): void {
    const size = text.length;
    if (size > maxItemBytes || size > this.#budget.limitBytes || this.#entries.has(obj)) return;
    if (!this.#holds(obj)) return;
    while (this.#budget.usedBytes + size > this.#budget.limitBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) return; // the budget is held by other caches
      this.forget(oldest.value);
    }
    this.#entries.set(obj, text);
    this.#bytes += size;
    this.#budget.usedBytes += size;
  }

  /** Drops `obj`'s entry (the cache no longer holds it). */
  forget(obj: KubeObject): void {
    const text = this.#entries.get(obj);
    if (text === undefined) return;
    this.#entries.delete(obj);
    this.#bytes -= text.length;
    this.#budget.usedBytes -= text.length;
  }

  /** Drops every entry (the cache replaced its state, or stopped). */
  clear(): void {
    this.#budget.usedBytes -= this.#bytes;
    this.#bytes = 0;
    this.#entries.clear();
  }
}
