/**
 * A cluster CIDR cut into node-sized subnets and a bitmap of the ones in use (upstream v1.27
 * pkg/controller/nodeipam/ipam/cidrset/cidr_set.go): the next free subnet after the last one
 * handed out, occupying the subnets a CIDR overlaps (nodes that already have one), releasing them.
 * At most 2^16 subnets per set, as upstream.
 */
import { parseCIDRSloppy } from '../../apis/networking/v1/validation/cidr.js';
import { formatIPBytes } from '../../machinery/validation/ip.js';
import { cidrSetMetrics } from './cidrset-metrics.js';
import type { CidrSetMetrics } from './cidrset-metrics.js';

/** Upstream clusterSubnetMaxDiff. */
const maxSubnetBitsDiff = 16;

export class CidrSetError extends Error {
  override readonly name = 'CidrSetError';
}

export const errNoCidrsRemaining =
  'CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range';
export const errSubNetTooBig = 'New CIDR set failed; the node CIDR size is too big';

interface Net {
  readonly v6: boolean;
  readonly base: bigint;
  readonly prefix: number;
}

function bitsOf(n: { readonly v6: boolean }): number {
  return n.v6 ? 128 : 32;
}

/** Parses `cidr` (host bits cleared); throws CidrSetError when malformed. */
export function parseNet(cidr: string): Net {
  const parsed = parseCIDRSloppy(cidr);
  if (parsed === undefined) throw new CidrSetError(`invalid CIDR address: ${cidr}`);
  let base = 0n;
  for (const b of parsed.ip) base = (base << 8n) | BigInt(b);
  return { v6: parsed.bits === 128, base, prefix: parsed.ones };
}

export function formatNet(n: Net): string {
  if (!n.v6) {
    const parts = [24n, 16n, 8n, 0n].map((s) => String((n.base >> s) & 0xffn));
    return `${parts.join('.')}/${n.prefix}`;
  }
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number((n.base >> BigInt((15 - i) * 8)) & 0xffn);
  const ip = formatIPBytes(bytes);
  return `${ip}/${n.prefix}`;
}

export class CidrSet {
  readonly #cluster: Net;
  readonly #nodeMask: number;
  readonly #max: number;
  readonly #used: Uint8Array;
  readonly #metrics: CidrSetMetrics;
  #allocated = 0;
  #next = 0;

  /** NewCIDRSet: throws CidrSetError when the node mask is too far from the cluster mask. */
  constructor(clusterCIDR: string, nodeMaskSize: number) {
    this.#cluster = parseNet(clusterCIDR);
    const diff = nodeMaskSize - this.#cluster.prefix;
    if (diff > maxSubnetBitsDiff) throw new CidrSetError(errSubNetTooBig);
    if (diff < 0 || nodeMaskSize > bitsOf(this.#cluster)) {
      throw new CidrSetError(`node CIDR mask size ${nodeMaskSize} does not fit cluster CIDR ${clusterCIDR}`);
    }
    this.#nodeMask = nodeMaskSize;
    this.#max = 2 ** diff;
    this.#used = new Uint8Array(Math.ceil(this.#max / 8));
    this.#metrics = cidrSetMetrics(formatNet(this.#cluster));
    this.#metrics.maxCidrs.set(this.#max);
  }

  get clusterCIDR(): string {
    return formatNet(this.#cluster);
  }

  get isIPv6(): boolean {
    return this.#cluster.v6;
  }

  /** Subnets handed out or occupied. */
  get allocated(): number {
    return this.#allocated;
  }

  get max(): number {
    return this.#max;
  }

  #bit(i: number): boolean {
    return ((this.#used[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  }

  #set(i: number, on: boolean): void {
    const byte = this.#used[i >> 3] ?? 0;
    this.#used[i >> 3] = on ? byte | (1 << (i & 7)) : byte & ~(1 << (i & 7));
  }

  #subnet(i: number): string {
    const shift = BigInt(bitsOf(this.#cluster) - this.#nodeMask);
    return formatNet({
      v6: this.#cluster.v6,
      base: this.#cluster.base + (BigInt(i) << shift),
      prefix: this.#nodeMask,
    });
  }

  #updateUsage(): void {
    this.#metrics.usage.set(this.#allocated / this.#max);
  }

  /** AllocateNext: the next free subnet, searching on from the last one handed out. */
  allocateNext(): string {
    if (this.#allocated === this.#max) throw new CidrSetError(errNoCidrsRemaining);
    let candidate = this.#next;
    for (let tries = 1; tries <= this.#max; tries++) {
      if (!this.#bit(candidate)) {
        this.#set(candidate, true);
        this.#next = (candidate + 1) % this.#max;
        this.#allocated++;
        this.#metrics.allocations.inc();
        this.#metrics.triesPerRequest.observe(tries);
        this.#updateUsage();
        return this.#subnet(candidate);
      }
      candidate = (candidate + 1) % this.#max;
    }
    throw new CidrSetError(errNoCidrsRemaining);
  }

  /** getBeginningAndEndIndices: the subnets `cidr` overlaps. */
  #range(cidr: string): [number, number] {
    const n = parseNet(cidr);
    const c = this.#cluster;
    const bits = bitsOf(c);
    const outOfRange = (): CidrSetError =>
      new CidrSetError(`cidr ${cidr} is out the range of cluster cidr ${formatNet(c)}`);
    if (n.v6 !== c.v6) throw outOfRange();
    const maskOf = (prefix: number): bigint => ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
    const clusterHasIt = (n.base & maskOf(c.prefix)) === c.base;
    const itHasCluster = n.prefix <= c.prefix && (c.base & maskOf(n.prefix)) === n.base;
    if (!clusterHasIt && !itHasCluster) throw outOfRange();
    if (itHasCluster) return [0, this.#max - 1];
    const shift = BigInt(bits - this.#nodeMask);
    const index = (ip: bigint): number => Number((ip - c.base) >> shift);
    const begin = index(n.base & maskOf(this.#nodeMask));
    if (n.prefix >= this.#nodeMask) return [begin, begin];
    const last = n.base | ((1n << BigInt(bits - n.prefix)) - 1n);
    return [begin, index(last & maskOf(this.#nodeMask))];
  }

  /** Occupy: marks the subnets `cidr` overlaps as used. */
  occupy(cidr: string): void {
    const [begin, end] = this.#range(cidr);
    for (let i = begin; i <= end; i++) {
      if (this.#bit(i)) continue;
      this.#set(i, true);
      this.#allocated++;
      this.#metrics.allocations.inc();
    }
    this.#updateUsage();
  }

  /** Release: frees the subnets `cidr` overlaps. */
  release(cidr: string): void {
    const [begin, end] = this.#range(cidr);
    for (let i = begin; i <= end; i++) {
      if (!this.#bit(i)) continue;
      this.#set(i, false);
      this.#allocated--;
      this.#metrics.releases.inc();
    }
    this.#updateUsage();
  }
}
