/**
 * Test fakes for the allocator contract (types.ts): sequential addresses prefix+1, +2, ... and
 * ports from 30000, so tests can predict them (the real allocators in src/allocators/ are random).
 */
import type {
  IPFamilyName,
  ServiceAllocatorFactory,
  ServiceAllocators,
  ServiceIPRange,
  ServicePortRange,
} from './types.js';

export function ipRange(prefix: string, cidr: string, from?: Iterable<string>): ServiceIPRange {
  const taken = new Set<string>(from);
  let next = 1;
  return {
    fork: () => ipRange(prefix, cidr, taken),
    cidr,
    contains: (ip) => ip.startsWith(prefix),
    has: (ip) => taken.has(ip),
    allocate(ip) {
      if (!ip.startsWith(prefix))
        throw new Error(`provided IP is not in the valid range. The range of valid IPs is ${cidr}`);
      if (taken.has(ip)) throw new Error('provided IP is already allocated');
      taken.add(ip);
    },
    allocateNext() {
      while (taken.has(`${prefix}${next}`)) next++;
      const ip = `${prefix}${next}`;
      taken.add(ip);
      return ip;
    },
    release: (ip) => void taken.delete(ip),
  };
}

export function portRange(from?: Iterable<number>): ServicePortRange {
  const taken = new Set<number>(from);
  return {
    fork: () => portRange(taken),
    range: '30000-32767',
    contains: (p) => p >= 30000 && p <= 32767,
    has: (p) => taken.has(p),
    allocate(p) {
      if (p < 30000 || p > 32767)
        throw new Error('provided port is not in the valid range. The range of valid ports is 30000-32767');
      if (taken.has(p)) throw new Error('provided port is already allocated');
      taken.add(p);
    },
    allocateNext() {
      let p = 30000;
      while (taken.has(p)) p++;
      taken.add(p);
      return p;
    },
    release: (p) => void taken.delete(p),
  };
}

export function allocators(dual = false): ServiceAllocators {
  const families: IPFamilyName[] = dual ? ['IPv4', 'IPv6'] : ['IPv4'];
  const ips = new Map<IPFamilyName, ServiceIPRange>([['IPv4', ipRange('10.96.0.', '10.96.0.0/12')]]);
  if (dual) ips.set('IPv6', ipRange('fd00::', 'fd00::/108'));
  return { families, ips, ports: portRange() };
}

/** A factory of fresh fakes: 10.96.0.x, and fd00::x when dual-stack. */
export function fakeFactory(dual = false): ServiceAllocatorFactory {
  return {
    families: dual ? ['IPv4', 'IPv6'] : ['IPv4'],
    ipRange: (family) =>
      family === 'IPv4' ? ipRange('10.96.0.', '10.96.0.0/12') : ipRange('fd00::', 'fd00::/108'),
    portRange: () => portRange(),
    canonicalIP: (ip) => ip,
  };
}
