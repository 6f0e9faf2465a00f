/**
 * Which offsets of a range are taken, and how the next one is chosen (upstream
 * pkg/registry/core/service/allocator/bitmap.go, randomScanStrategyWithOffset): a random start in
 * the upper (dynamic) band [band, max) scanning upwards with wrap-around, then, when that is full,
 * a random start in the lower (static) band [0, band). Offsets are bigints so IPv6 ranges need no
 * bitmap of their size: only the taken offsets are kept.
 */

/** A uniform random integer in [0, n). */
export type RandomInt = (n: bigint) => bigint;

export const defaultRandom: RandomInt = (n) => {
  if (n <= 0n) return 0n;
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return BigInt(Math.floor(Math.random() * Number(n)));
  // Wide ranges: 64 random bits at a time, reduced (the bias is negligible for a scan start).
  let r = 0n;
  for (let bits = 0n; 1n << bits < n * 2n; bits += 32n) {
    r = (r << 32n) | BigInt(Math.floor(Math.random() * 2 ** 32));
  }
  return r % n;
};

export interface AllocationMapOptions {
  /** Number of offsets, [0, max). */
  readonly max: bigint;
  /** Size of the static band at the bottom (0: none). */
  readonly band?: number;
  readonly random?: RandomInt;
}

export class AllocationMap {
  readonly #max: bigint;
  readonly #band: bigint;
  readonly #random: RandomInt;
  readonly #taken = new Set<bigint>();
  /** A fork reads through to the map it was forked from; `#released` hides the parent's offsets. */
  #parent: AllocationMap | undefined;
  readonly #released = new Set<bigint>();

  constructor(o: AllocationMapOptions) {
    this.#max = o.max < 0n ? 0n : o.max;
    const b = BigInt(o.band ?? 0);
    this.#band = b > this.#max ? this.#max : b;
    this.#random = o.random ?? defaultRandom;
  }

  get max(): bigint {
    return this.#max;
  }

  get band(): bigint {
    return this.#band;
  }

  get count(): number {
    return this.#taken.size + (this.#parent === undefined ? 0 : this.#parent.count - this.#released.size);
  }

  has(offset: bigint): boolean {
    return (
      this.#taken.has(offset) ||
      (this.#parent !== undefined && !this.#released.has(offset) && this.#parent.has(offset))
    );
  }

  /** Takes `offset`; false when it was already taken. The caller checks the bounds. */
  allocate(offset: bigint): boolean {
    if (this.has(offset)) return false;
    if (this.#released.delete(offset)) return true; // the parent's again
    this.#taken.add(offset);
    return true;
  }

  /** Takes a free offset, dynamic band first; undefined when the range is full. */
  allocateNext(): bigint | undefined {
    if (BigInt(this.count) >= this.#max) return undefined;
    const upper = this.#max - this.#band;
    const found = this.#scan(this.#band, upper) ?? this.#scan(0n, this.#band);
    if (found !== undefined) this.allocate(found);
    return found;
  }

  release(offset: bigint): void {
    if (this.#taken.delete(offset)) return;
    if (this.#parent?.has(offset) === true) this.#released.add(offset);
  }

  /**
   * A copy-on-write view: it starts as this map and takes and releases on its own; this map is
   * not changed by it. Cheap (no copy), for one attempt at a write over shared state.
   */
  fork(): AllocationMap {
    const f = new AllocationMap({ max: this.#max, band: Number(this.#band), random: this.#random });
    f.#parent = this;
    return f;
  }

  offsets(): bigint[] {
    const all = new Set(this.#taken);
    if (this.#parent !== undefined) {
      for (const o of this.#parent.offsets()) if (!this.#released.has(o)) all.add(o);
    }
    return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The first free offset from a random start in [from, from+size), wrapping around. */
  #scan(from: bigint, size: bigint): bigint | undefined {
    if (size <= 0n) return undefined;
    const start = this.#random(size);
    // At most |taken| + 1 probes: a run of taken offsets cannot be longer than the set.
    const count = BigInt(this.count);
    const limit = count + 1n < size ? count + 1n : size;
    for (let i = 0n; i < limit; i++) {
      const at = from + ((start + i) % size);
      if (!this.has(at)) return at;
    }
    return undefined;
  }
}
