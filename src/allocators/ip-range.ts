/**
 * A Service CIDR's address allocator (upstream pkg/registry/core/service/ipallocator/bitmap.go,
 * v1.27, with KEP-3070's static band always on as ServiceIPStaticSubrange is GA): offsets count
 * from the address after the network address, which is never handed out; for IPv4 neither is the
 * broadcast address. The legacy allocator keeps a bitmap and so caps IPv6 ranges at 65,536
 * addresses; `maxAddresses` changes the cap (the MultiCIDRServiceAllocator one is 2^64, a /64).
 */
import { AllocationMap } from './allocation-map.js';
import type { RandomInt } from './allocation-map.js';
import { clusterIPStaticBand } from './bands.js';
import { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './errors.js';
import { formatCIDR, formatIP, parseCIDR, parseIP } from './ip.js';
import type { CIDR, IPFamily } from './ip.js';

export const legacyIPv6MaxAddresses = 65536n;

export interface IPRangeOptions {
  /** The range, e.g. `10.96.0.0/12` or `fd00:10:96::/108`. */
  readonly cidr: string;
  /** IPv6 cap on the addresses considered (default 65,536 as upstream's bitmap allocator). */
  readonly ipv6MaxAddresses?: bigint;
  /** IPv4 cap (default none). */
  readonly ipv4MaxAddresses?: bigint;
  readonly random?: RandomInt;
}

export class InvalidRangeError extends Error {
  override readonly name = 'InvalidRangeError';
}

export class IPRangeAllocator {
  readonly #cidr: CIDR;
  readonly #text: string;
  /** The first allocatable address (network + 1). */
  readonly #first: bigint;
  #map: AllocationMap;
  readonly #options: IPRangeOptions;

  constructor(o: IPRangeOptions) {
    this.#options = o;
    const cidr = parseCIDR(o.cidr);
    if (cidr === undefined) throw new InvalidRangeError(`invalid CIDR ${o.cidr}`);
    this.#cidr = cidr;
    this.#text = formatCIDR(cidr);
    let max = cidr.size;
    if (cidr.family === 6) {
      const cap = o.ipv6MaxAddresses ?? legacyIPv6MaxAddresses;
      if (max > cap) max = cap;
    } else {
      if (o.ipv4MaxAddresses !== undefined && max > o.ipv4MaxAddresses) max = o.ipv4MaxAddresses;
      max -= 1n; // broadcast
    }
    max -= 1n; // network address
    this.#first = cidr.base + 1n;
    this.#map = new AllocationMap({
      max: max < 0n ? 0n : max,
      band: clusterIPStaticBand(cidr.size),
      ...(o.random !== undefined ? { random: o.random } : {}),
    });
  }

  /** A copy-on-write view of this allocator's state (AllocationMap.fork): for one write attempt. */
  fork(): IPRangeAllocator {
    const f = new IPRangeAllocator(this.#options);
    f.#map = this.#map.fork();
    return f;
  }

  get family(): IPFamily {
    return this.#cidr.family;
  }

  /** The range as Go prints it (network address / prefix). */
  get cidr(): string {
    return this.#text;
  }

  /** Addresses that can be handed out. */
  get size(): bigint {
    return this.#map.max;
  }

  /** Size of the static (reserved) band at the bottom of the range. */
  get staticBand(): bigint {
    return this.#map.band;
  }

  get used(): number {
    return this.#map.count;
  }

  get free(): bigint {
    return this.#map.max - BigInt(this.#map.count);
  }

  /** Whether `ip` can be allocated from this range (its family, inside, not reserved). */
  contains(ip: string): boolean {
    return this.#offset(ip) !== undefined;
  }

  has(ip: string): boolean {
    const off = this.#offset(ip);
    return off !== undefined && this.#map.has(off);
  }

  /** Takes `ip`, or throws NotInRangeError / AlreadyAllocatedError. */
  allocate(ip: string): void {
    const off = this.#offset(ip);
    if (off === undefined) throw new NotInRangeError('IP', this.#text);
    if (!this.#map.allocate(off)) throw new AlreadyAllocatedError('IP');
  }

  /** Takes a free address (the dynamic band first) and returns it canonically; RangeFullError when none. */
  allocateNext(): string {
    const off = this.#map.allocateNext();
    if (off === undefined) throw new RangeFullError();
    return formatIP({ family: this.#cidr.family, value: this.#first + off });
  }

  /** Frees `ip`; nothing happens for addresses not taken or outside the range. */
  release(ip: string): void {
    const off = this.#offset(ip);
    if (off !== undefined) this.#map.release(off);
  }

  /** The taken addresses, lowest first. */
  allocated(): string[] {
    return this.#map.offsets().map((o) => formatIP({ family: this.#cidr.family, value: this.#first + o }));
  }

  #offset(ip: string): bigint | undefined {
    const parsed = parseIP(ip);
    if (parsed?.family !== this.#cidr.family) return undefined;
    const off = parsed.value - this.#first;
    return off < 0n || off >= this.#map.max ? undefined : off;
  }
}
