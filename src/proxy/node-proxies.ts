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
import { Proxier } from './proxier.js';
import type { ProxierOptions } from './proxier.js';
import { healthAnswer, metricsAnswer } from './servers.js';
import type { ProxyAnswer } from './servers.js';
import { ServiceHealth, healthAnswerHeaders } from './service-health.js';

/** kube-proxy's default ports: `--healthz-bind-address` and `--metrics-bind-address`. */
export const proxyHealthPort = 10256;
export const proxyMetricsPort = 10249;

export interface NodeProxiesOptions {
  readonly informers: SharedInformerFactory;
  readonly nodeNames: readonly string[];
  /** `--cluster-cidr` of every proxy: the pods' addresses. */
  readonly clusterCIDR?: string;
  /** `--iptables-sync-period` (default 30 s) and `--iptables-min-sync-period` (default 1 s). */
  readonly syncPeriodMs?: number;
  readonly minSyncPeriodMs?: number;
  readonly clock?: Clock;
  readonly onError?: (node: string, err: unknown) => void;
}

interface NodeProxy {
  readonly proxier: Proxier;
  readonly tables: MemoryTables;
  readonly metrics: ProxyMetrics;
  readonly health: ServiceHealth;
}

export class NodeProxies {
  readonly #nodes = new Map<string, NodeProxy>();

  constructor(o: NodeProxiesOptions) {
    for (const nodeName of o.nodeNames) {
      const tables = new MemoryTables();
      const metrics = new ProxyMetrics();
      const health = new ServiceHealth();
      const options: ProxierOptions = {
        informers: o.informers,
        nodeName,
        backend: tables,
        canary: tables,
        metrics,
        serviceHealth: health,
        ...(o.clusterCIDR !== undefined ? { rules: { clusterCIDR: o.clusterCIDR } } : {}),
        ...(o.syncPeriodMs !== undefined ? { syncPeriodMs: o.syncPeriodMs } : {}),
        ...(o.minSyncPeriodMs !== undefined ? { minSyncPeriodMs: o.minSyncPeriodMs } : {}),
        ...(o.clock !== undefined ? { clock: o.clock } : {}),
        ...(o.onError !== undefined ? { onError: (err: unknown) => o.onError?.(nodeName, err) } : {}),
      };
      this.#nodes.set(nodeName, { proxier: new Proxier(options), tables, metrics, health });
    }
  }

  /** Runs every node's proxy until `signal` aborts (subscribe before the informers start). */
  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.#nodes.values()].map((n) => n.proxier.run(signal)));
  }

  /** The names of the nodes that run a proxy. */
  nodeNames(): string[] {
    return [...this.#nodes.keys()];
  }

  /** A node's iptables as `iptables-save` prints them; undefined for a node without a proxy. */
  iptablesSave(node: string): string | undefined {
    return this.#nodes.get(node)?.tables.save();
  }

  /**
   * What `node:port` answers on `path` (HTTP): kube-proxy's health and metrics addresses and the
   * node's health check node ports; undefined when nothing of the proxy listens there.
   */
  async answer(node: string, port: number, path: string): Promise<ProxyAnswer | undefined> {
    const n = this.#nodes.get(node);
    if (n === undefined) return undefined;
    if (port === proxyHealthPort) return healthAnswer(n.proxier, path);
    if (port === proxyMetricsPort) return metricsAnswer(n.metrics, path);
    const a = n.health.answer(port);
    return a === undefined ? undefined : { status: a.status, headers: healthAnswerHeaders, body: a.body };
  }
}
