/**
 * `--nodeport-addresses` (upstream pkg/proxy/util NodePortAddresses): the CIDRs whose node
 * addresses answer node ports. Each proxy keeps the CIDRs of its IP family; none (the default)
 * means the zero CIDR, every local address, which the rules match with `--dst-type LOCAL`.
 * Otherwise the node's interface addresses inside the CIDRs are listed at every sync, one rule
 * each. Localhost node ports (IPv4) stay on only while a CIDR holds 127.0.0.0.
 */
import { networkInterfaces } from 'node:os';
import { parseCIDRSloppy } from '../apis/networking/v1/validation/cidr.js';
import { containsIP } from './iptables/cidr-match.js';
import { runTool } from './run-tool.js';
import { cidrOfFamily } from './service-port.js';
import type { IpFamily } from './service-port.js';

const zeroCIDRs = new Set(['0.0.0.0/0', '::/0']);

export class NodePortAddresses {
  readonly cidrs: readonly string[];
  /** The zero CIDR is among them: every local address. */
  readonly matchAll: boolean;
  /** A CIDR holds IPv4 loopback (localhost node ports may stay on). */
  readonly containsIPv4Loopback: boolean;

  constructor(family: IpFamily, cidrs: readonly string[]) {
    let mine = cidrs.filter((c) => cidrOfFamily(c, family));
    if (mine.length === 0) mine = [family === 'IPv4' ? '0.0.0.0/0' : '::/0'];
    const zero = mine.find((c) => zeroCIDRs.has(c));
    this.cidrs = zero !== undefined ? [zero] : mine;
    this.matchAll = zero !== undefined;
    this.containsIPv4Loopback = this.cidrs.some((c) => cidrOfFamily(c, 'IPv4') && containsIP(c, '127.0.0.0'));
  }

  /** The addresses among `addrs` inside the CIDRs, each once. */
  nodeIPs(addrs: readonly string[]): string[] {
    return [...new Set(addrs.filter((ip) => this.cidrs.some((c) => containsIP(c, ip))))];
  }
}

/** Why `--nodeport-addresses` is refused (upstream's validation words), or undefined. */
export function invalidNodePortAddress(cidrs: readonly string[]): string | undefined {
  const bad = cidrs.find((c) => parseCIDRSloppy(c) === undefined);
  return bad === undefined ? undefined : `"${bad}": must be a valid CIDR`;
}

/** The node's interface addresses: this host's, or those of a network namespace (`ip -j addr`). */
export async function interfaceAddresses(netns: string | undefined, signal: AbortSignal): Promise<string[]> {
  if (netns === undefined) {
    return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
  }
  const r = await runTool('ip', ['-j', 'addr', 'show'], { netns, signal });
  if (r.code !== 0) throw new Error(`ip addr show in netns ${netns}: ${r.stderr.trim() || `exit ${r.code}`}`);
  const links: unknown = JSON.parse(r.stdout);
  const out: string[] = [];
  if (!Array.isArray(links)) return out;
  for (const link of links as unknown[]) {
    const infos = (link as { addr_info?: unknown }).addr_info;
    if (!Array.isArray(infos)) continue;
    for (const info of infos as unknown[]) {
      const local = (info as { local?: unknown }).local;
      if (typeof local === 'string') out.push(local);
    }
  }
  return out;
}
