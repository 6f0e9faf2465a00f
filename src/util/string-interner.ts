/**
 * One copy of each short string value that repeats among the objects a thread keeps. JSON.parse
 * gives every string value of every object its own copy: 15,000 cached pods held 30,000 copies of
 * `registry.k8s.io/pause:3.9`, 15,000 of each default toleration's key, thousands of each second's
 * timestamp — a sixth of the watch cache's and of the informers' memory. Keys need nothing: V8
 * already keeps one copy of each property name.
 *
 * The table is two generations of a bounded size: a string is looked up in the current one, then
 * in the previous one (and moved to the current). When the current one is full it becomes the
 * previous and the oldest is dropped, so strings that keep coming (an image, a namespace, a node's
 * name) stay shared while unique ones (uids, names, IPs) pass through without the table growing.
 * A string dropped from the table stays alive in the objects that hold it; later ones get a new
 * shared copy.
 */

/** Longer strings are rarely repeated and cost more to hash: they are left as they are. */
const maxInternedLength = 128;

export interface StringInternerOptions {
  /** Strings one generation holds before it becomes the previous one. */
  readonly generationSize?: number;
}

export class StringInterner {
  #current = new Map<string, string>();
  #previous = new Map<string, string>();
  readonly #generationSize: number;
  #hits = 0;

  constructor(o: StringInternerOptions = {}) {
    this.#generationSize = o.generationSize ?? 16_384;
  }

  /** Strings the table holds (both generations). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }

  /** Look-ups answered with a copy the table held (a statistic, for tests: equal strings are indistinguishable). */
  get hits(): number {
    return this.#hits;
  }

  /** The shared copy of `s`. */
  string(s: string): string {
    if (s.length > maxInternedLength) return s;
    let shared = this.#current.get(s);
    if (shared !== undefined) {
      this.#hits++;
      return shared;
    }
    shared = this.#previous.get(s);
    if (shared !== undefined) this.#hits++;
    else shared = s;
    this.#current.set(s, shared);
    if (this.#current.size >= this.#generationSize) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    return shared;
  }

  /**
   * Replaces, in place, every string value in `value`'s objects and arrays by its shared copy. The
   * strings are equal, so whoever else reads the object sees no change; a frozen object is left
   * as it is. A member of `value` that is the very object `previous` has under the same key (an
   * informer's unchanged spec, taken from the version before) was interned then and is skipped.
   */
  intern(value: unknown, previous?: Readonly<Record<string, unknown>>): void {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        // Always written: equal strings compare equal whichever copy they are.
        if (typeof v === 'string') value[i] = this.string(v);
        else if (typeof v === 'object' && v !== null) this.intern(v);
      }
      return;
    }
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      const v = obj[k];
      if (typeof v === 'string') obj[k] = this.string(v);
      else if (typeof v === 'object' && v !== null && v !== previous?.[k]) this.intern(v);
    }
  }
}

/**
 * The interner of this thread: the watch caches on the API server's thread, the informers on the
 * components' thread. One per thread, so that what caches of different kinds repeat (a node's name
 * in its pods, a namespace) is shared too.
 */
export const threadStrings = new StringInterner();
