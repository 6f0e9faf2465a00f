/**
 * `--node-ip IP[,IP]` (`nanokube serve` and `nanokube nodes`; dual-stack, NW-08 / CloudNodeIPs,
 * kubernetes#116305): the first simulated node's InternalIP per family, as the kubelet's flag.
 * Node i gets each address + i.
 *
 * Kubelet v1.27 (cmd/kubelet/app/server.go RunKubelet → component-helpers nodeutil
 * ParseNodeIPArgument) accepts one IP or a dual-stack pair, either family first; the first is the
 * primary (listed first in status.addresses, the pods' hostIP, the family of their first podIP).
 * Its errors read `bad --node-ip "V": must contain either a single IP or a dual-stack pair of
 * IPs` and `bad --node-ip "V": dual-stack node IP cannot include '0.0.0.0' or '::'`; those texts
 * are kept. Two differences, both stricter:
 *  - an unparsable entry is an error (`could not parse "X"`, ParseNodeIPAnnotation's text), where
 *    the kubelet logs "Could not parse node IP. Ignoring" and goes on;
 *  - a single unspecified address is an error: to the kubelet it means "autodetect, preferring this
 *    family", but a simulated node has no interfaces to pick from.
 *
 * Dual-stack needs no feature gate: CloudDualStackNodeIPs only governs `--cloud-provider=external`,
 * and without a cloud provider the kubelet has always allowed a pair. For the same reason the
 * nodes carry no `alpha.kubernetes.io/provided-node-ip` annotation: the kubelet writes it (and
 * deletes it otherwise) only with an external cloud provider, for the cloud node controller to
 * read; nanokube has none, and addresses go straight into status.addresses.
 */
import { parseIPSloppy } from '../machinery/validation/ip.js';
import { addToIp, formatIp } from '../nodes/cidr.js';
import { FlagError } from './serve/flags.js';

const pairError = 'must contain either a single IP or a dual-stack pair of IPs';

function isV4(ip: string): boolean {
  return !ip.includes(':');
}

/** Go's net.IP String(): IPv4 (also IPv4-mapped IPv6) dotted, IPv6 in canonical form. */
function canonical(b: Uint8Array): string {
  const mapped = b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  if (b.length === 4 || mapped) return [...b.slice(-4)].join('.');
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return formatIp(6, v);
}

/**
 * The addresses of a `--node-ip` value, canonical, the primary first; [] for the empty value (the
 * default addresses). Throws FlagError with the kubelet's texts.
 */
export function parseNodeIPs(value: string): string[] {
  if (value === '') return [];
  const bad = (why: string): FlagError => new FlagError(`bad --node-ip "${value}": ${why}`);
  const ips = value.split(',').map((entry) => {
    const ip = entry.trim();
    const b = parseIPSloppy(ip);
    if (b === undefined) throw bad(`could not parse "${ip}"`);
    return canonical(b);
  });
  if (ips.length > 2 || (ips.length === 2 && isV4(ips[0]!) === isV4(ips[1]!))) throw bad(pairError);
  const unspecified = ips.some((ip) => ip === '0.0.0.0' || ip === '::');
  if (unspecified && ips.length === 2) throw bad(`dual-stack node IP cannot include '0.0.0.0' or '::'`);
  if (unspecified) {
    throw bad(`a simulated node cannot autodetect its address: give it one, not '0.0.0.0' or '::'`);
  }
  return ips;
}

/**
 * `--node-ip` for `count` nodes: undefined when the flag was not given (or empty); throws
 * FlagError when the last node's address (each + count - 1) would leave its address space.
 */
export function nodeIPsOf(value: string | undefined, count: number): string[] | undefined {
  if (value === undefined) return undefined;
  const ips = parseNodeIPs(value);
  if (ips.length === 0) return undefined;
  for (const ip of ips) {
    try {
      addToIp(ip, Math.max(0, count - 1));
    } catch {
      throw new FlagError(
        `bad --node-ip "${value}": ${count} nodes number their addresses up from ${ip}, past the last IPv${isV4(ip) ? 4 : 6} address`,
      );
    }
  }
  return ips;
}

/** kind's IPv6 pod subnet: a /64 per node from fd00:10:244::/56 (256 nodes), else from a /48. */
export function ipv6PodCIDRFor(nodes: number): string {
  return nodes <= 256 ? 'fd00:10:244::/56' : 'fd00:10:244::/48';
}

/**
 * The cluster pod CIDRs for nodes with these addresses: one per node IP family, in the order of
 * the node IPs (as a cluster whose `--cluster-cidr` matches its nodes: the primary family's pod
 * IP comes first, as the kubelet's sortPodIPs orders them). Without node IPs, IPv4 only.
 */
export function podCIDRsFor(nodeIPs: readonly string[] | undefined, ipv4: string, ipv6: string): string[] {
  if (nodeIPs === undefined || nodeIPs.length === 0) return [ipv4];
  return nodeIPs.map((ip) => (isV4(ip) ? ipv4 : ipv6));
}
