/**
 * A small seeded pseudo-random generator (mulberry32) with the draws the fuzz generators need.
 * The same seed gives the same sequence on every platform, so a failing case can be replayed.
 */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 0x1_0000_0000;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** One of the entries, each chosen in proportion to its weight. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((sum, [w]) => sum + w, 0);
    let r = this.float() * total;
    for (const [w, value] of entries) {
      if (r < w) return value;
      r -= w;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new RangeError('weighted pick from an empty list');
    return last[1];
  }

  /** A seed for a child generator, so one case's draws do not shift the next case's. */
  fork(): Prng {
    return new Prng(this.next());
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.next() & 0xff;
    return out;
  }

  /** A string of `n` characters from `alphabet`. */
  string(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789-.'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet.charAt(this.int(0, alphabet.length - 1));
    return s;
  }
}

/** Derives the generator of case `index` of a run from the run's seed. */
export function caseRng(seed: number, index: number): Prng {
  return new Prng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0).fork();
}
