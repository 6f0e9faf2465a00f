/**
 * `startCluster()`: an isolated Kubernetes v1.27 cluster in this process for a test or a tool.
 * In-memory storage by default, real HTTPS on a free port of 127.0.0.1 (so kubectl, client-go,
 * @kubernetes/client-node and the Python client work against it), a kubeconfig as a file, a YAML
 * string and an object, an in-process typed client, and `stop()` releasing everything it holds.
 * Any number run side by side: they share only the process's PKI (see shared-pki.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { kubeconfigText } from '../cmd/serve/kubeconfig.js';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startServer } from '../cmd/serve/start.js';
import type { ServerOptions } from '../cmd/serve/start.js';
import { inProcessTransport } from '../cmd/serve/in-process-transport.js';
import { RestClient } from '../client/rest-client.js';
import { typedClients } from '../client/typed-client.js';
import type { Clientset } from '../client/typed-client.js';
import type { Logger } from '../util/log.js';
import { clusterClock } from './cluster-clock.js';
import type { ClockOption, ClusterClock } from './cluster-clock.js';
import { sharedPki } from './shared-pki.js';
import { ClusterSnapshot } from './cluster-snapshot.js';
import type { FaultRule } from '../apiserver/faults/fault-rule.js';
import type { KvSnapshot } from '../storage/kv/types.js';
import type { FaultHandle } from '../apiserver/faults/fault-injector.js';

export interface ClusterOptions {
  /** `'memory'` (default): nothing touches the disk but a kubeconfig; `'sqlite'`: a database in `dataDir`. */
  readonly storage?: 'memory' | 'sqlite';
  /**
   * Where the kubeconfig (and with SQLite the database) is written. Default: a new temporary
   * directory, removed by `stop()`. A given directory is kept.
   */
  readonly dataDir?: string;
  /**
   * The built-in controllers: `true` (default) runs all of them, `false` none, a string selects
   * them as kube-controller-manager's `--controllers` does (e.g. `'*,-garbagecollector'`).
   */
  readonly controllers?: boolean | string;
  /** Simulated nodes, run with the scheduler (default 1; 0 runs neither). */
  readonly nodes?: number;
  /**
   * `'iptables'`: every simulated node runs kube-proxy's iptables mode in-process, its rules kept
   * in memory (`cluster.iptablesSave(node)`), its health and metrics ports reached through
   * `nodes/{name}:{port}/proxy` (default: no proxy).
   */
  readonly proxyMode?: 'iptables';
  /**
   * `--service-cluster-ip-range`: one CIDR, or a dual-stack pair such as
   * `'10.96.0.0/12,fd00:10:96::/112'` (then the nodes' proxies run for both families).
   */
  readonly serviceClusterIPRange?: string;
  /** Feature gates on top of v1.27's defaults, e.g. `{ WatchList: true }`. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** Admission plugins beyond or instead of the defaults, and a plugin configuration file. */
  readonly admission?: {
    readonly enable?: readonly string[];
    readonly disable?: readonly string[];
    readonly configFile?: string;
  };
  /** `--authorization-mode` (default `['RBAC']`); the admin credentials are always allowed. */
  readonly authorizationModes?: readonly string[];
  /** `--runtime-config`, e.g. `'admissionregistration.k8s.io/v1alpha1=true'`. */
  readonly runtimeConfig?: string;
  /** `'real'` (default), `'manual'` (starts now), or `{ manual: instant }`: see ClusterClock. */
  readonly clock?: ClockOption;
  /** Fault rules in effect from the start (more can be added with `cluster.faults.inject`). */
  readonly faults?: readonly FaultRule[];
  /** Where the server logs (default: errors to stderr, nothing else). */
  readonly log?: Logger;
}

/** A kubeconfig as kubectl reads it. */
export interface Kubeconfig {
  readonly apiVersion: 'v1';
  readonly kind: 'Config';
  readonly clusters: readonly { name: string; cluster: Record<string, string> }[];
  readonly users: readonly { name: string; user: Record<string, string> }[];
  readonly contexts: readonly { name: string; context: Record<string, string> }[];
  readonly 'current-context': string;
}

export interface Cluster extends AsyncDisposable {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** A kubeconfig file with the admin credentials (system:masters), for kubectl or `KUBECONFIG`. */
  readonly kubeconfigPath: string;
  /** The same kubeconfig as YAML text (e.g. `KubeConfig.loadFromString` of client-node). */
  readonly kubeconfig: string;
  /** The same kubeconfig as an object. */
  readonly kubeconfigObject: Kubeconfig;
  /** The CA the server's certificate chains to (PEM). */
  readonly caCert: string;
  /** A typed client that reaches the server without the network, as the admin. */
  readonly client: Clientset;
  /** The untyped client under `client`: any path, JSON in and out, watches. */
  readonly rest: RestClient;
  /**
   * Faults injected on purpose: `inject(rule)` makes matching requests fail (409, 429 with
   * Retry-After, 500, 503, 504), expire (410 Gone), wait, or closes and drops matching watches;
   * it returns a handle to remove the rule. Every injected fault is counted in `/metrics`
   * (`nanokube_injected_faults_total`).
   */
  readonly faults: ClusterFaults;
  /** The cluster's time; a manual clock moves with `clock.advance('10m')`. */
  readonly clock: ClusterClock;
  /**
   * The whole cluster now: every object with its resourceVersion, Service IP and port
   * allocations, Event leases. Restoring it into this cluster (or, as bytes, into another) puts
   * all of that back.
   */
  snapshot(): Promise<ClusterSnapshot>;
  /**
   * Puts a snapshot back (or its `bytes()`). Resolves once reads see the restored state; watches
   * open across it end, and clients watching again get 410 Gone and relist (as after an etcd
   * compaction), so informers and controllers pick the restored state up by themselves.
   */
  restore(snapshot: ClusterSnapshot | Uint8Array): Promise<void>;
  /**
   * A simulated node's iptables as `iptables-save` prints them, as its proxy last wrote them
   * (`proxyMode: 'iptables'`; the proxy syncs within a second of a change). Throws for a node
   * without a proxy.
   */
  iptablesSave(node: string): string;
  /**
   * The same of its ip6tables, written by its IPv6 proxy: a cluster with an IPv6 service range
   * (`serviceClusterIPRange: '10.96.0.0/12,fd00:10:96::/112'`) runs one on every node. Throws
   * for a node without one.
   */
  ip6tablesSave(node: string): string;
  /** Stops controllers, nodes and the server, ends watches and removes the temporary directory. */
  stop(): Promise<void>;
}

/** What a cluster's user does with faults (see FaultRule for what a rule can say). */
export interface ClusterFaults {
  /** Adds a rule; a FaultRuleError says what is wrong with a bad one. */
  inject(rule: FaultRule): FaultHandle;
  /** Removes every rule added with `inject`. */
  clear(): void;
  /** How many faults have been injected so far. */
  readonly injected: number;
}

/**
 * The storage of a freshly bootstrapped cluster (namespaces, the RBAC policy, priority and
 * fairness configuration, APIServices, priority classes), per set of options that shape it: a
 * later in-memory cluster starts from it instead of writing the same objects again.
 */
const bootstrapTemplates = new Map<string, KvSnapshot>();

const quiet: Logger = {
  v: () => undefined,
  info: () => undefined,
  error: (m) => process.stderr.write(`nanokube: ${m}\n`),
};

/** Starts a cluster; see ClusterOptions for what can be chosen. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  // The server exists only after the clock (it runs on it): `quiet` reaches it when it does.
  const late: { server?: { api: { whenQuiet(ms: number): Promise<void> } } } = {};
  const { clock, view } = clusterClock(
    options.clock,
    () => late.server?.api.whenQuiet(100) ?? Promise.resolve(),
  );
  const pki = await sharedPki();
  const ownDir = options.dataDir === undefined;
  const dataDir =
    options.dataDir !== undefined ? resolve(options.dataDir) : await mkdtemp(join(tmpdir(), 'nanokube-'));
  const templateKey =
    // (A manual clock stamps the bootstrap objects with its own time: those start from nothing.)
    (options.storage ?? 'memory') === 'memory' && view.mode === 'real'
      ? JSON.stringify([
          options.featureGates ?? {},
          options.runtimeConfig ?? '',
          options.authorizationModes ?? [],
        ])
      : undefined;
  const template = templateKey !== undefined ? bootstrapTemplates.get(templateKey) : undefined;
  const serverOptions: ServerOptions = {
    dataDir,
    pkiDir: pki.dir,
    pki: pki.pki,
    storage: options.storage ?? 'memory',
    bindAddress: '127.0.0.1',
    securePort: 0,
    log: options.log ?? quiet,
    controllers: options.controllers !== false,
    ...(typeof options.controllers === 'string' ? { controllerSelection: options.controllers } : {}),
    ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
    ...(options.proxyMode !== undefined ? { proxyMode: options.proxyMode } : {}),
    ...(options.serviceClusterIPRange !== undefined
      ? { serviceClusterIPRange: options.serviceClusterIPRange }
      : {}),
    ...(options.featureGates !== undefined ? { featureGates: options.featureGates } : {}),
    ...(options.admission !== undefined ? { admission: options.admission } : {}),
    ...(options.authorizationModes !== undefined ? { authorizationModes: options.authorizationModes } : {}),
    ...(options.runtimeConfig !== undefined ? { runtimeConfig: options.runtimeConfig } : {}),
    // The process's PKI is not the data dir's: no profiling socket, no synchronous fsyncs to wait for.
    profiling: false,
    // One identity for every cluster's controller manager: each holds its own Lease in its own
    // storage, and a snapshot restored into another cluster brings a Lease this cluster's
    // manager holds already, instead of one it must wait out (15 s) before its controllers run.
    leaderElectionIdentity: `${hostname()}_nanokube-cluster`,
    ...(view.mode === 'manual' ? { clock } : {}),
    ...(template !== undefined ? { initialState: template } : {}),
    ...(templateKey !== undefined && template === undefined
      ? { captureBootstrap: (state: KvSnapshot) => void bootstrapTemplates.set(templateKey, state) }
      : {}),
  };
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(serverOptions);
  } catch (err) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  late.server = server;
  const injector = server.faults;
  /** A node's tables of one family as its proxy last wrote them; a clear error without one. */
  const tablesOf = (node: string, family: 'IPv4' | 'IPv6'): string => {
    const proxies = server.nodeProxies;
    const text = proxies?.iptablesSave(node, family);
    if (text !== undefined) return text;
    if (proxies === undefined)
      throw new Error('no proxies run: start the cluster with proxyMode: "iptables"');
    if (proxies.nodeNames().includes(node)) {
      throw new Error(
        `simulated node ${JSON.stringify(node)} runs no ${family} proxy (the cluster has no ${family} service range)`,
      );
    }
    throw new Error(
      `no simulated node ${JSON.stringify(node)} runs a proxy (they are ${proxies.nodeNames().join(', ')})`,
    );
  };
  try {
    for (const rule of options.faults ?? []) injector.inject(rule);
  } catch (err) {
    await server.close();
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  // The file's text, made again in memory: no file read between the start and the first request.
  const kubeconfig = kubeconfigText(server.url, server.pki);
  const transport = inProcessTransport(server.api, {
    user: {
      name: 'kubernetes-admin',
      uid: '',
      groups: ['system:masters', 'system:authenticated'],
      extra: {},
    },
    userAgent: 'nanokube-cluster-client',
  });
  const rest = new RestClient({ transport });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      transport.close();
      await server.close();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    })());
  return {
    url: server.url,
    port: server.port,
    kubeconfigPath: server.kubeconfigPath,
    kubeconfig,
    kubeconfigObject: parseYaml(kubeconfig) as Kubeconfig,
    caCert: server.pki.caCert,
    client: typedClients(rest),
    rest,
    clock: view,
    faults: {
      inject: (rule) => injector.inject(rule),
      clear: () => injector.clear(),
      get injected() {
        return injector.injected;
      },
    },
    iptablesSave: (node) => tablesOf(node, 'IPv4'),
    ip6tablesSave: (node) => tablesOf(node, 'IPv6'),
    snapshot: async () => new ClusterSnapshot(await server.snapshot()),
    async restore(snapshot) {
      const s = snapshot instanceof ClusterSnapshot ? snapshot : ClusterSnapshot.fromBytes(snapshot);
      await server.restore(s.kv);
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
