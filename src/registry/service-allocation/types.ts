/**
 * What the Service allocation hooks need from the allocators (src/allocators/ implements it; the
 * registry layer does not import that folder, so cmd/ hands the factories in).
 */

export type IPFamilyName = 'IPv4' | 'IPv6';

/** One family's Service range, holding the addresses recorded as taken. */
export interface ServiceIPRange {
  /** The range as Go prints it, e.g. 10.96.0.0/12 (part of upstream's refusal texts). */
  readonly cidr: string;
  contains(ip: string): boolean;
  has(ip: string): boolean;
  /** Throws the allocator's error (its message is upstream's) when `ip` cannot be taken. */
  allocate(ip: string): void;
  /** A free address, canonical; throws when the range is full. */
  allocateNext(): string;
  release(ip: string): void;
  /** A copy-on-write view for one write attempt (this range is not changed by it). */
  fork(): ServiceIPRange;
}

/** The node port range, holding the ports recorded as taken. */
export interface ServicePortRange {
  readonly range: string;
  contains(port: number): boolean;
  has(port: number): boolean;
  allocate(port: number): void;
  allocateNext(): number;
  release(port: number): void;
  /** A copy-on-write view for one write attempt. */
  fork(): ServicePortRange;
}

/** Builds fresh, empty allocators (one set per write attempt, filled from the stored state). */
export interface ServiceAllocatorFactory {
  /** The configured families, the primary (`--service-cluster-ip-range`'s first CIDR) first. */
  readonly families: readonly IPFamilyName[];
  ipRange(family: IPFamilyName): ServiceIPRange;
  portRange(): ServicePortRange;
  /** The canonical text of an address (keys and IPAddress names use it); undefined when not an IP. */
  canonicalIP(ip: string): string | undefined;
}

/** Allocators filled with what is taken now. */
export interface ServiceAllocators {
  readonly families: readonly IPFamilyName[];
  readonly ips: ReadonlyMap<IPFamilyName, ServiceIPRange>;
  readonly ports: ServicePortRange;
}

/** What one write takes and gives back. */
export interface AllocationPlan {
  readonly takeIPs: string[];
  readonly releaseIPs: string[];
  readonly takePorts: number[];
  readonly releasePorts: number[];
}
