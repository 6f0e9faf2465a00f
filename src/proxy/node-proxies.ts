/**
 * The proxies of simulated nodes: with `--proxy-mode iptables`, every simulated node runs
 * kube-proxy's iptables mode in this process, as a real node runs kube-proxy beside its kubelet.
 * There is no kernel to program, so each node's rules go to iptables kept in memory
 * (iptables/memory-tables.ts), which applies and refuses restores as iptables-restore does.
 *
 * What a client reaches on a real node, it reaches here through the API server's node proxy
 * (`nodes/{name}:{port}/proxy/{path}`): the health address on 10256 (`/healthz`, NW-13), the
 * metrics address on 10249 (`/metrics`, `/healthz`, `/proxyMode`; kube-proxy binds it to
 * 127.0.0.1 by default, a simulated node answers it as if bound to 0.0.0.0, so the sync metrics
 * can be read), and the health check node ports of `externalTrafficPolicy: Local` load balancers.
 * All proxies share one set of informers: each resource is watched once for all nodes.
 */
import type { SharedInformerFactory } from '../client/informer-factory.js';
import type { Clock } from '../util/clock.js';
import { MemoryTables } from './iptables/memory-tables.js';
import { ProxyMetrics } from './metrics.js';
import { combinedHealth } from './combined-health.js';
import { Proxier } from './proxier.js';
import type { ProxierOptions } from './proxier.js';
import { healthAnswer, metricsAnswer } from './servers.js';
import type { ProxyAnswer } from './servers.js';
import { ServiceHealth, healthAnswerHeaders } from './service-health.js';
import { cidrOfFamily } from './service-port.js';
import type { IpFamily } from './service-port.js';

/** kube-proxy's default ports: `--healthz-bind-address` and `--metrics-bind-address`. */
export const proxyHealthPort = 10256;
export const proxyMetricsPort = 10249;

export interface NodeProxiesOptions {
  readonly informers: SharedInformerFactory;
  readonly nodeNames: readonly string[];
  /**
   * The IP families each node proxies (default IPv4): a dual-stack cluster's nodes run an IPv4
   * and an IPv6 proxy, as kube-proxy does where iptables and ip6tables both work.
   */
  readonly families?: readonly IpFamily[];
  /** `--cluster-cidr` of every proxy, one per family: the pods' addresses. */
  readonly clusterCIDRs?: readonly string[];
  /** `--iptables-sync-period` (default 30 s) and `--iptables-min-sync-period` (default 1 s). */
  readonly syncPeriodMs?: number;
  readonly minSyncPeriodMs?: number;
  readonly clock?: Clock;
  readonly onError?: (node: string, err: unknown) => void;
}

interface FamilyProxy {
  readonly proxier: Proxier;
  readonly tables: MemoryTables;
  readonly health: ServiceHealth;
}

interface NodeProxy {
  readonly families: ReadonlyMap<IpFamily, FamilyProxy>;
  readonly health: Pick<Proxier, 'health'>;
  /** Shared by the node's proxies, as a node's kube-proxy has one registry. */
  readonly metrics: ProxyMetrics;
}

export class NodeProxies {
  readonly #nodes = new Map<string, NodeProxy>();

  constructor(o: NodeProxiesOptions) {
    for (const nodeName of o.nodeNames) {
      const metrics = new ProxyMetrics();
      const families = new Map<IpFamily, FamilyProxy>();
      for (const family of o.families ?? ['IPv4']) {
        const tables = new MemoryTables();
        const health = new ServiceHealth();
        const clusterCIDR = o.clusterCIDRs?.find((c) => cidrOfFamily(c, family));
        const options: ProxierOptions = {
          informers: o.informers,
          nodeName,
          family,
          backend: tables,
          canary: tables,
          metrics,
          serviceHealth: health,
          ...(clusterCIDR !== undefined ? { rules: { clusterCIDR } } : {}),
          ...(o.syncPeriodMs !== undefined ? { syncPeriodMs: o.syncPeriodMs } : {}),
          ...(o.minSyncPeriodMs !== undefined ? { minSyncPeriodMs: o.minSyncPeriodMs } : {}),
          ...(o.clock !== undefined ? { clock: o.clock } : {}),
          ...(o.onError !== undefined ? { onError: (err: unknown) => o.onError?.(nodeName, err) } : {}),
        };
        families.set(family, { proxier: new Proxier(options), tables, health });
      }
      const health = combinedHealth([...families.values()].map((f) => f.proxier));
      this.#nodes.set(nodeName, { families, health, metrics });
    }
  }

  /** Runs every node's proxies until `signal` aborts (subscribe before the informers start). */
  async run(signal: AbortSignal): Promise<void> {
    const all = [...this.#nodes.values()].flatMap((n) => [...n.families.values()]);
    await Promise.all(all.map((f) => f.proxier.run(signal)));
  }

  /** The names of the nodes that run a proxy. */
  nodeNames(): string[] {
    return [...this.#nodes.keys()];
  }

  /**
   * A node's iptables (or, for IPv6, ip6tables) as `iptables-save` prints them; undefined for a
   * node without a proxy of that family.
   */
  iptablesSave(node: string, family: IpFamily = 'IPv4'): string | undefined {
    return this.#nodes.get(node)?.families.get(family)?.tables.save();
  }

  /**
   * What `node:port` answers on `path` (HTTP): kube-proxy's health and metrics addresses and the
   * node's health check node ports; undefined when nothing of the proxy listens there.
   */
  async answer(node: string, port: number, path: string): Promise<ProxyAnswer | undefined> {
    const n = this.#nodes.get(node);
    if (n === undefined) return undefined;
    if (port === proxyHealthPort) return healthAnswer(n.health, path);
    if (port === proxyMetricsPort) return metricsAnswer(n.metrics, path);
    for (const f of n.families.values()) {
      const a = f.health.answer(port);
      if (a !== undefined) return { status: a.status, headers: healthAnswerHeaders, body: a.body };
    }
    return undefined;
  }
}
