/**
 * Clearing stale conntrack entries of UDP Services (upstream pkg/proxy/conntrack). UDP has no
 * connections for conntrack to see end: a client that keeps sending from one port keeps the
 * entry, and with it the DNAT to the endpoint it first reached, or the "no endpoint" verdict it
 * first met. So after a sync the proxy deletes:
 *
 * - entries to a UDP Service IP whose service port is gone, or whose port went from no ready
 *   endpoint to some (cluster IP, external IPs, load balancer IPs, and the node port);
 * - entries NATed to a UDP endpoint that was ready and is gone (or changed: not ready, moved),
 *   for each of the Service's IPs and its node port, so the client's next packet picks a live one.
 *
 * Detection is pure (`noteStaleConntrack`, fed each Service's ports and endpoints before and after
 * a change); the deletions run the `conntrack` tool (`ConntrackRunner`), where "0 flow entries
 * have been deleted" is no error.
 */
import { isIPv6 } from 'node:net';
import type { EndpointWithChain } from './endpoints.js';
import { portKey } from './endpoints.js';
import { runTool } from './run-tool.js';
import type { ServicePort } from './service-port.js';

/** What conntrack entries a sync makes stale; filled across syncs until one succeeds. */
export class StaleConntrack {
  /** Service IPs: delete every UDP entry to them. */
  readonly serviceIPs = new Set<string>();
  /** Node ports (with the family): delete every UDP entry to them. */
  readonly nodePorts = new Map<string, { readonly port: number; readonly ipv6: boolean }>();
  /** Service IP → endpoint IP: delete UDP entries to the first NATed to the second. */
  readonly nat = new Map<string, { readonly origin: string; readonly dest: string }>();
  /** Node port → endpoint IP. */
  readonly portNat = new Map<string, { readonly dest: string; readonly port: number }>();

  get empty(): boolean {
    return this.serviceIPs.size + this.nodePorts.size + this.nat.size + this.portNat.size === 0;
  }

  addNodePort(port: number, ipv6: boolean): void {
    this.nodePorts.set(`${port}/${ipv6}`, { port, ipv6 });
  }

  addNat(origin: string, dest: string): void {
    this.nat.set(`${origin} ${dest}`, { origin, dest });
  }

  addPortNat(dest: string, port: number): void {
    this.portNat.set(`${dest} ${port}`, { dest, port });
  }
}

export interface ServiceState {
  readonly ports: readonly ServicePort[] | undefined;
  readonly endpoints: ReadonlyMap<string, readonly EndpointWithChain[]> | undefined;
}

const isUDP = (p: { readonly protocol: string }): boolean => p.protocol === 'udp';

/** The Service's addresses a client may have sent to (cluster, external, load balancer IPs). */
function serviceIPs(p: ServicePort): string[] {
  return [p.clusterIP, ...p.externalIPs, ...p.loadBalancerIPs];
}

function readyCount(eps: readonly EndpointWithChain[] | undefined): number {
  return (eps ?? []).filter((e) => e.ready).length;
}

/** Notes in `into` what one Service's change from `before` to `after` leaves stale. */
export function noteStaleConntrack(into: StaleConntrack, before: ServiceState, after: ServiceState): void {
  const keyOf = (p: ServicePort): string => portKey(p.name, p.protocol);
  const now = new Map((after.ports ?? []).map((p) => [keyOf(p), p]));
  // A UDP service port that is gone: its cluster IP.
  for (const p of before.ports ?? []) {
    if (isUDP(p) && !now.has(keyOf(p))) into.serviceIPs.add(p.clusterIP);
  }
  for (const [key, p] of now) {
    if (!isUDP(p)) continue;
    const old = before.endpoints?.get(key);
    const current = after.endpoints?.get(key) ?? [];
    // From no ready endpoint to some: entries made while packets were rejected.
    if (readyCount(current) > 0 && readyCount(old) === 0) {
      for (const ip of serviceIPs(p)) into.serviceIPs.add(ip);
      if (p.nodePort !== 0) into.addNodePort(p.nodePort, isIPv6(p.clusterIP));
    }
    // A ready endpoint that is gone or changed (upstream Endpoint.Equal: address, local, ready).
    for (const e of old ?? []) {
      if (!e.ready) continue;
      const kept = current.some(
        (c) => c.endpoint === e.endpoint && c.local === e.local && c.ready === e.ready,
      );
      if (kept) continue;
      if (p.nodePort !== 0) into.addPortNat(e.ip, p.nodePort);
      for (const ip of serviceIPs(p)) into.addNat(ip, e.ip);
    }
  }
}

/** Deletes conntrack entries; each call resolves when done (none to delete is no error). */
export interface ConntrackCleaner {
  clearIP(ip: string, signal: AbortSignal): Promise<void>;
  clearPort(port: number, ipv6: boolean, signal: AbortSignal): Promise<void>;
  clearNAT(origin: string, dest: string, signal: AbortSignal): Promise<void>;
  clearPortNAT(dest: string, port: number, signal: AbortSignal): Promise<void>;
}

/** Runs every deletion `stale` holds; tells `onError` of each that fails and goes on. */
export async function clearStaleConntrack(
  stale: StaleConntrack,
  cleaner: ConntrackCleaner,
  signal: AbortSignal,
  onError: (err: unknown) => void,
): Promise<void> {
  const attempt = async (op: () => Promise<void>): Promise<void> => {
    try {
      await op();
    } catch (err) {
      if (signal.aborted) throw err;
      onError(err);
    }
  };
  for (const ip of stale.serviceIPs) await attempt(() => cleaner.clearIP(ip, signal));
  for (const { port, ipv6 } of stale.nodePorts.values()) {
    await attempt(() => cleaner.clearPort(port, ipv6, signal));
  }
  for (const { dest, port } of stale.portNat.values()) {
    await attempt(() => cleaner.clearPortNAT(dest, port, signal));
  }
  for (const { origin, dest } of stale.nat.values())
    await attempt(() => cleaner.clearNAT(origin, dest, signal));
}

export class ConntrackError extends Error {}

/** What the conntrack tool prints when nothing matched (exit 1): not an error. */
const nothingDeleted = '0 flow entries have been deleted';

/** The `conntrack` tool (apt `conntrack`), optionally in a network namespace. */
export class ConntrackRunner implements ConntrackCleaner {
  readonly #netns: string | undefined;

  constructor(o: { readonly netns?: string | undefined } = {}) {
    this.#netns = o.netns;
  }

  async #delete(ipv6: boolean, args: readonly string[], signal: AbortSignal): Promise<void> {
    const argv = ['-D', ...args, ...(ipv6 ? ['-f', 'ipv6'] : [])];
    let r;
    try {
      r = await runTool('conntrack', argv, { netns: this.#netns, signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new ConntrackError(`error looking for path of conntrack: ${String(err)}`);
    }
    const output = `${r.stdout}${r.stderr}`;
    if (r.code === 0 || output.includes(nothingDeleted)) return;
    throw new ConntrackError(`conntrack ${argv.join(' ')} returned: ${JSON.stringify(output.trim())}`);
  }

  clearIP(ip: string, signal: AbortSignal): Promise<void> {
    return this.#delete(isIPv6(ip), ['--orig-dst', ip, '-p', 'udp'], signal);
  }

  clearPort(port: number, ipv6: boolean, signal: AbortSignal): Promise<void> {
    return this.#delete(ipv6, ['-p', 'udp', '--dport', String(port)], signal);
  }

  clearNAT(origin: string, dest: string, signal: AbortSignal): Promise<void> {
    return this.#delete(isIPv6(origin), ['--orig-dst', origin, '--dst-nat', dest, '-p', 'udp'], signal);
  }

  clearPortNAT(dest: string, port: number, signal: AbortSignal): Promise<void> {
    return this.#delete(isIPv6(dest), ['-p', 'udp', '--dport', String(port), '--dst-nat', dest], signal);
  }
}
