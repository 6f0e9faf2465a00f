/**
 * The Service allocators the services store's hooks use (NW-03): `--service-cluster-ip-range`
 * (one CIDR, or two of different families for dual-stack, the primary first) and
 * `--service-node-port-range`, built from src/allocators/ for the registry, which does not import
 * that folder. With MultiCIDRServiceAllocator the IPv6 range is capped at a /64 instead of the
 * legacy bitmap's 65,536 addresses (upstream ipallocator.go).
 */
import { formatIP, IPRangeAllocator, parseIP, PortRangeAllocator } from '../../allocators/index.js';
import type { FeatureGates } from '../../machinery/features.js';
import type { IPFamilyName, ServiceAllocatorFactory } from '../../registry/service-allocation/types.js';

export interface ServiceAllocatorOptions {
  readonly serviceClusterIPRange: string;
  readonly serviceNodePortRange?: string;
  readonly features: FeatureGates;
}

export class ServiceRangeError extends Error {
  override readonly name = 'ServiceRangeError';
}

export function serviceAllocatorFactory(o: ServiceAllocatorOptions): ServiceAllocatorFactory {
  const multiCIDR = o.features.enabled('MultiCIDRServiceAllocator');
  const cidrs = o.serviceClusterIPRange
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const byFamily = new Map<IPFamilyName, string>();
  for (const cidr of cidrs) {
    const family: IPFamilyName = cidr.includes(':') ? 'IPv6' : 'IPv4';
    if (byFamily.has(family)) {
      throw new ServiceRangeError(
        `--service-cluster-ip-range: at most one CIDR per IP family (${o.serviceClusterIPRange})`,
      );
    }
    new IPRangeAllocator({ cidr }); // refuses a malformed CIDR now rather than on the first write
    byFamily.set(family, cidr);
  }
  const families = [...byFamily.keys()];
  const staticSubrange = o.features.enabled('ServiceNodePortStaticSubrange');
  return {
    families,
    ipRange: (family) =>
      new IPRangeAllocator({
        cidr: byFamily.get(family)!,
        ...(multiCIDR ? { ipv6MaxAddresses: 1n << 64n } : {}),
      }),
    portRange: () =>
      new PortRangeAllocator({
        ...(o.serviceNodePortRange !== undefined ? { range: o.serviceNodePortRange } : {}),
        staticSubrange,
      }),
    canonicalIP: (ip) => {
      const parsed = parseIP(ip);
      return parsed === undefined ? undefined : formatIP(parsed);
    },
  };
}
