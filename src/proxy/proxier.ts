/**
 * The proxy's sync loop (upstream pkg/proxy/iptables Proxier): it follows Services,
 * EndpointSlices and its own Node through the client's informers, notes which Services changed,
 * and turns the state into iptables rules (iptables/rules.ts) written through a backend.
 *
 * MinimizeIPTablesRestore (NW-06, on by default as in v1.27): the first sync, a sync after a
 * failure, after a change of the node's labels (topology) and after iptables were flushed under
 * the proxy (its canary chain gone, looked for every `syncPeriodMs`: canary.ts) are full; the
 * others are partial and write only the chains of Services that changed since the last good sync
 * (plus the chains every sync rewrites, and the deletion of stale ones). As in v1.27 there is no
 * periodic full sync: without changes the proxy syncs once an hour (partial). Syncs are paced as
 * upstream's BoundedFrequencyRunner paces them (sync-limiter.ts): two at once, then one per
 * `minSyncPeriodMs`, so a stream of changes is batched. A failed restore is tried again a sync
 * period later (or at the next change), as a full sync; a failed partial one also counts
 * `kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total`. The full sync also makes
 * sure of the jumps from the built-in chains. After a sync the conntrack entries of UDP Services
 * it made stale are deleted (conntrack.ts).
 */
import type { SharedInformerFactory } from '../client/informer-factory.js';
import type { HandlerRegistration } from '../client/shared-informer.js';
import type { ReadonlyStore } from '../client/informer-store.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import type { JsonObject } from '../util/json.js';
import { monitorCanary } from './canary.js';
import type { CanaryTables } from './canary.js';
import { SyncLimiter } from './sync-limiter.js';
import { StaleConntrack, clearStaleConntrack, noteStaleConntrack } from './conntrack.js';
import type { ConntrackCleaner } from './conntrack.js';
import { serviceEndpoints, serviceOfSlice } from './endpoints.js';
import type { EndpointWithChain } from './endpoints.js';
import { buildRules } from './iptables/rules.js';
import type { RulesOptions, RulesResult } from './iptables/rules.js';
import { obj, objs, str, stringMap } from './json.js';
import type { NodePortAddresses } from './node-port-addresses.js';
import type { ProxyMetrics } from './metrics.js';
import type { HealthCheckTarget, ServiceHealthServers } from './service-health.js';
import { ofFamily, servicePorts } from './service-port.js';
import type { IpFamily, ServicePort } from './service-port.js';

/** Where the rules go: iptables-restore and iptables-save, or a test double. */
export interface IptablesBackend {
  /** `iptables-restore --noflush --counters` of `text`; rejects when it fails. */
  restore(text: string, signal: AbortSignal): Promise<void>;
  /** The chains of the nat table as they are now. */
  natChains(signal: AbortSignal): Promise<Set<string>>;
  /** The proxy's chains exist and the built-in chains jump to them (full syncs). */
  ensureJumps(signal: AbortSignal): Promise<void>;
}

export interface ProxierOptions {
  readonly informers: SharedInformerFactory;
  /** The node the proxy runs for: its endpoints are local, its labels give the zone. */
  readonly nodeName: string;
  readonly backend: IptablesBackend;
  readonly family?: IpFamily;
  readonly rules?: Partial<Omit<RulesOptions, 'nodeLabels' | 'family'>>;
  /** A full sync at least this often (`--iptables-sync-period`, default 30 s). */
  readonly syncPeriodMs?: number;
  /** Syncs at most this often (`--iptables-min-sync-period`, default 1 s). */
  readonly minSyncPeriodMs?: number;
  readonly metrics?: ProxyMetrics;
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
  /** Told after every sync (tests, --dry-run). */
  readonly onSync?: (result: SyncResult) => void;
  /**
   * Told after every successful sync which health check node ports to serve (ETP Local load
   * balancers) and each Service's count of ready endpoints on this node (service-health.ts).
   */
  readonly serviceHealth?: Pick<ServiceHealthServers, 'sync'>;
  /**
   * Deletes the conntrack entries of UDP Services a sync made stale (conntrack.ts); without it
   * (simulated nodes: no kernel) nothing is deleted.
   */
  readonly conntrack?: ConntrackCleaner;
  /**
   * Where to keep kube-proxy's canary chain (canary.ts), looked for every `syncPeriodMs`: when
   * iptables are flushed under the proxy, the next sync is full. Without it, no canary.
   */
  readonly canary?: CanaryTables;
  /**
   * `--nodeport-addresses`: node ports answer only on the node's addresses in these CIDRs,
   * listed at every sync by `interfaceAddresses`. Without it, on every local address.
   */
  readonly nodePortAddresses?: {
    readonly addresses: NodePortAddresses;
    readonly interfaceAddresses: (signal: AbortSignal) => Promise<string[]>;
  };
}

export interface SyncResult {
  readonly full: boolean;
  readonly ok: boolean;
  /** The restore input's size. */
  readonly bytes: number;
  readonly rules: RulesResult | undefined;
  readonly changedServices: number;
  /** The service ports of the proxy's family the rules cover. */
  readonly servicePorts: number;
  readonly ms: number;
  readonly error?: unknown;
}

/** The longest the proxy goes without a sync (upstream's BoundedFrequencyRunner maxInterval). */
const maxIntervalMs = 3_600_000;

const servicesPath = '/api/v1/services';
const slicesPath = '/apis/discovery.k8s.io/v1/endpointslices';
const nodesPath = '/api/v1/nodes';

function keyOf(o: JsonObject): string {
  const meta = obj(o['metadata']);
  return `${str(meta['namespace'])}/${str(meta['name'])}`;
}

export class Proxier {
  readonly #o: ProxierOptions;
  readonly #clock: Clock;
  readonly #family: IpFamily;
  /** Services (`ns/name`) changed since the last successful sync. */
  #changed = new Set<string>();
  #needFull = true;
  #nodeLabels: Record<string, string> = {};
  #nodeIP = '';
  /** Each Service's slices by slice key, kept from the informer's events. */
  readonly #slices = new Map<string, Map<string, JsonObject>>();
  /** Per Service: its ports and their endpoints as of the last sync that looked at it. */
  readonly #ports = new Map<string, ServicePort[]>();
  readonly #endpoints = new Map<string, Map<string, EndpointWithChain[]>>();
  #services: ReadonlyStore | undefined;
  /** When the oldest change not yet written was queued (healthz). */
  #oldestPending: number | undefined;
  #lastUpdated: number | undefined;
  #wake: (() => void) | undefined;
  /** Something asked for a sync since the last one began (a change, a forced full sync). */
  #requested = false;
  /** The fixed chains' rules as the last successful restore left them (partial syncs skip the same). */
  #written: ReadonlyMap<string, string> | undefined;
  /** Conntrack entries made stale by changes not yet written by a successful sync. */
  #stale = new StaleConntrack();

  constructor(o: ProxierOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#family = o.family ?? 'IPv4';
  }

  /** The proxy's health as kube-proxy's /healthz judges it (v1.27). */
  health(): { healthy: boolean; lastUpdated: number | undefined; now: number } {
    const now = this.#clock.now();
    const timeout = 2 * (this.#o.syncPeriodMs ?? 30_000);
    const healthy = this.#oldestPending === undefined || now - this.#oldestPending < timeout;
    return { healthy, lastUpdated: this.#lastUpdated, now };
  }

  #queue(service: string): void {
    this.#changed.add(service);
    this.#oldestPending ??= this.#clock.now();
    this.#o.metrics?.lastQueued.set(this.#clock.now() / 1000);
    this.#requested = true;
    this.#wake?.();
  }

  #onSlice(slice: JsonObject, deleted: boolean): void {
    const svc = serviceOfSlice(slice);
    if (svc === undefined) return;
    let slices = this.#slices.get(svc);
    if (slices === undefined) {
      slices = new Map();
      this.#slices.set(svc, slices);
    }
    if (deleted) slices.delete(keyOf(slice));
    else slices.set(keyOf(slice), slice);
    if (slices.size === 0) this.#slices.delete(svc);
    this.#o.metrics?.endpointChanges.inc();
    this.#queue(svc);
  }

  #onNode(node: JsonObject): void {
    if (str(obj(node['metadata'])['name']) !== this.#o.nodeName) return;
    const labels = stringMap(obj(node['metadata'])['labels']);
    const ip = objs(obj(node['status'])['addresses']).find(
      (a) => str(a['type']) === 'InternalIP' && ofFamily(str(a['address']), this.#family),
    );
    this.#nodeIP = str(ip?.['address']);
    if (JSON.stringify(labels) !== JSON.stringify(this.#nodeLabels)) {
      // Topology hints depend on the node's zone: every Service may change.
      this.#nodeLabels = labels;
      this.#needFull = true;
      this.#oldestPending ??= this.#clock.now();
      this.#requested = true;
      this.#wake?.();
    }
  }

  /** Subscribes to the informers; returns what stops it. */
  #watch(): HandlerRegistration[] {
    const services = this.#o.informers.informerFor(servicesPath);
    const slices = this.#o.informers.informerFor(slicesPath);
    const nodes = this.#o.informers.informerFor(nodesPath);
    this.#services = services.store;
    const onService = (s: JsonObject): void => {
      this.#o.metrics?.serviceChanges.inc();
      this.#queue(keyOf(s));
    };
    return [
      services.addEventHandler({ onAdd: onService, onUpdate: (_, s) => onService(s), onDelete: onService }),
      slices.addEventHandler({
        onAdd: (s) => this.#onSlice(s, false),
        onUpdate: (_, s) => this.#onSlice(s, false),
        onDelete: (s) => this.#onSlice(s, true),
      }),
      nodes.addEventHandler({ onAdd: (n) => this.#onNode(n), onUpdate: (_, n) => this.#onNode(n) }),
    ];
  }

  #serviceKeys(): string[] {
    return (this.#services?.list() ?? []).map(keyOf);
  }

  /** Brings the per-Service ports and endpoints of `services` up to date. */
  #refresh(services: Iterable<string>): void {
    const hostname = this.#o.nodeName;
    for (const key of services) {
      const svc = this.#services?.get(key);
      const ports = svc === undefined ? [] : servicePorts(svc, this.#family);
      const before = { ports: this.#ports.get(key), endpoints: this.#endpoints.get(key) };
      if (ports.length === 0) {
        this.#ports.delete(key);
        this.#endpoints.delete(key);
        noteStaleConntrack(this.#stale, before, { ports: undefined, endpoints: undefined });
        continue;
      }
      const endpoints = serviceEndpoints(key, this.#slices.get(key)?.values() ?? [], {
        family: this.#family,
        hostname,
      });
      this.#ports.set(key, ports);
      this.#endpoints.set(key, endpoints);
      noteStaleConntrack(this.#stale, before, { ports, endpoints });
    }
  }

  /** One sync: full when one is needed (or `full`), else partial. */
  async sync(signal: AbortSignal, full = false): Promise<SyncResult> {
    const started = performance.now();
    const isFull = full || this.#needFull;
    const changed = this.#changed;
    this.#changed = new Set();
    this.#requested = false;
    const pendingSince = this.#oldestPending;
    this.#oldestPending = undefined;
    this.#refresh(isFull ? new Set([...this.#serviceKeys(), ...this.#ports.keys(), ...changed]) : changed);
    const endpoints = new Map<string, EndpointWithChain[]>();
    for (const m of this.#endpoints.values()) for (const [k, v] of m) endpoints.set(k, v);
    const r = this.#o.rules ?? {};
    const ports = [...this.#ports.values()].flat();
    let rules: RulesResult | undefined;
    try {
      const nodePortIPs = r.nodePortIPs ?? (await this.#nodePortIPs(signal));
      if (isFull) await this.#o.backend.ensureJumps(signal);
      const existing = await this.#o.backend.natChains(signal);
      rules = buildRules(
        { ports, endpoints },
        {
          family: this.#family,
          masqueradeMark: r.masqueradeMark ?? '0x00004000',
          masqueradeAll: r.masqueradeAll ?? false,
          ...(r.clusterCIDR !== undefined ? { clusterCIDR: r.clusterCIDR } : {}),
          localhostNodePorts: r.localhostNodePorts ?? true,
          nodeIP: r.nodeIP ?? this.#nodeIP,
          ...(nodePortIPs !== undefined ? { nodePortIPs } : {}),
          randomFully: r.randomFully ?? true,
          nodeLabels: this.#nodeLabels,
        },
        isFull || this.#written === undefined
          ? { existingNatChains: existing }
          : { changedServices: changed, existingNatChains: existing, written: this.#written },
      );
      await this.#o.backend.restore(rules.text, signal);
    } catch (err) {
      // Changes not written wait for the next sync, which is full.
      for (const s of changed) this.#changed.add(s);
      this.#oldestPending = pendingSince ?? this.#clock.now();
      this.#needFull = true;
      this.#written = undefined;
      this.#o.metrics?.restoreFailures.inc();
      if (!isFull) this.#o.metrics?.partialRestoreFailures.inc();
      this.#observe(isFull, started);
      const result: SyncResult = {
        full: isFull,
        ok: false,
        bytes: rules?.text.length ?? 0,
        rules,
        changedServices: changed.size,
        servicePorts: ports.length,
        ms: performance.now() - started,
        error: err,
      };
      this.#o.onError?.(err);
      this.#o.onSync?.(result);
      return result;
    }
    const now = this.#clock.now();
    this.#needFull = false;
    this.#written = rules.fixedChains;
    this.#lastUpdated = now;
    const m = this.#o.metrics;
    if (m !== undefined) {
      m.lastSync.set(now / 1000);
      m.rulesTotal.set({ table: 'filter' }, rules.filterRules);
      m.rulesTotal.set({ table: 'nat' }, rules.natRules);
      m.noLocalEndpoints.set({ traffic_policy: 'internal' }, rules.noLocalEndpoints.internal);
      m.noLocalEndpoints.set({ traffic_policy: 'external' }, rules.noLocalEndpoints.external);
    }
    this.#observe(isFull, started);
    this.#syncServiceHealth();
    // Housekeeping after the rules are in: UDP conntrack entries the change left stale.
    const stale = this.#stale;
    this.#stale = new StaleConntrack();
    if (this.#o.conntrack !== undefined && !stale.empty) {
      await clearStaleConntrack(stale, this.#o.conntrack, signal, (err) => this.#o.onError?.(err));
    }
    const result: SyncResult = {
      full: isFull,
      ok: true,
      bytes: Buffer.byteLength(rules.text),
      rules,
      changedServices: changed.size,
      servicePorts: ports.length,
      ms: performance.now() - started,
    };
    this.#o.onSync?.(result);
    return result;
  }

  /**
   * The node's addresses `--nodeport-addresses` selects (sorted); undefined when it selects every
   * local address. When they cannot be listed, none: node ports may not work, as upstream warns.
   */
  async #nodePortIPs(signal: AbortSignal): Promise<string[] | undefined> {
    const npa = this.#o.nodePortAddresses;
    if (npa === undefined || npa.addresses.matchAll) return undefined;
    try {
      return npa.addresses.nodeIPs(await npa.interfaceAddresses(signal)).sort();
    } catch (err) {
      if (signal.aborted) throw err;
      this.#o.onError?.(
        new Error(
          `failed to get node ip address matching nodeport cidrs ${JSON.stringify(npa.addresses.cidrs)}, services with nodeport may not work as intended: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
      return [];
    }
  }

  /** The health check node ports and local ready endpoint counts (distinct IPs per Service). */
  #syncServiceHealth(): void {
    const health = this.#o.serviceHealth;
    if (health === undefined) return;
    const targets: HealthCheckTarget[] = [];
    const counts = new Map<string, number>();
    for (const [service, ports] of this.#ports) {
      const port = ports.find((p) => p.healthCheckNodePort !== 0)?.healthCheckNodePort;
      if (port === undefined) continue;
      targets.push({ service, port });
      const ips = new Set<string>();
      for (const eps of this.#endpoints.get(service)?.values() ?? []) {
        for (const e of eps) if (e.local && e.ready) ips.add(e.ip);
      }
      counts.set(service, ips.size);
    }
    health.sync(targets, counts);
  }

  #observe(full: boolean, started: number): void {
    const seconds = (performance.now() - started) / 1000;
    this.#o.metrics?.syncDuration.observe(seconds);
    (full ? this.#o.metrics?.fullSyncDuration : this.#o.metrics?.partialSyncDuration)?.observe(seconds);
  }

  /** The next sync is full and comes at once (upstream forceSyncProxyRules: iptables were flushed). */
  forceFullSync(): void {
    this.#needFull = true;
    this.#oldestPending ??= this.#clock.now();
    this.#requested = true;
    this.#wake?.();
  }

  /** Subscribes to the informers (call before they start) and resolves when they have synced. */
  async start(): Promise<boolean> {
    this.#registrations = this.#watch();
    const informers = [servicesPath, slicesPath, nodesPath].map((p) => this.#o.informers.informerFor(p));
    const synced = await Promise.all(informers.map((i) => i.synced));
    return synced.every(Boolean);
  }

  #registrations: HandlerRegistration[] = [];

  /** Syncs until `signal` aborts: at once after start, then as changes come, within the periods. */
  async run(signal: AbortSignal): Promise<void> {
    // The monitor stops with the loop, also when the loop ends before `signal` aborts.
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const canary = this.#o.canary;
    const monitoring =
      canary === undefined
        ? undefined
        : monitorCanary(
            {
              tables: canary,
              intervalMs: this.#o.syncPeriodMs ?? 30_000,
              clock: this.#clock,
              onFlushed: () => this.forceFullSync(),
              ...(this.#o.onError !== undefined ? { onError: this.#o.onError } : {}),
            },
            stop.signal,
          );
    try {
      if (!(await this.start())) return;
      const period = this.#o.syncPeriodMs ?? 30_000;
      const limiter = new SyncLimiter(this.#o.minSyncPeriodMs ?? 1000, this.#clock);
      while (!signal.aborted) {
        await limiter.take(signal);
        if (signal.aborted) return;
        const result = await this.sync(signal);
        if (signal.aborted) return;
        // Without changes the next sync is an hour away (upstream's maxInterval); after a failure
        // the next try is a sync period later (upstream RetryAfter), or sooner on a change.
        const next = this.#clock.now() + (result.ok ? maxIntervalMs : period);
        while (!signal.aborted && !this.#requested && this.#clock.now() < next) {
          const woken = new Promise<void>((resolve) => {
            this.#wake = resolve;
          });
          const wait = new AbortController();
          const onStop = (): void => wait.abort();
          signal.addEventListener('abort', onStop, { once: true });
          await Promise.race([woken, this.#clock.sleep(next - this.#clock.now(), wait.signal)]);
          wait.abort();
          signal.removeEventListener('abort', onStop);
          this.#wake = undefined;
        }
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    } finally {
      for (const r of this.#registrations) r.remove();
      stop.abort();
      signal.removeEventListener('abort', onAbort);
      await monitoring;
    }
  }
}
