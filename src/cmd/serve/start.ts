/**
 * Composition root of `nanokube serve`: storage -> registry -> apiserver, plus PKI, kubeconfig and
 * the bootstrap namespaces. Also the library entry tests use to run an in-process server.
 */
import { isIPv6 } from 'node:net';
import { join, resolve } from 'node:path';
import { admitVirtualEndpoint, prepareAdmission, setUpAdmission } from './admission.js';
import { followPolicyStatus } from './policy-status.js';
import type { AdmissionFlags } from './admission.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { bootstrapFlowcontrolObjects } from '../../apis/flowcontrol/bootstrap.js';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { ServerSchemaRegistry } from '../../apis/schema/server-registry.js';
import { ApiServer } from '../../apiserver/server.js';
import type { BodyDecoder } from '../../apiserver/decode-request.js';
import type { Endpoint } from '../../apiserver/endpoint.js';
import type { VirtualEndpoint } from '../../apiserver/virtual-endpoint.js';
import type { AuditConfig } from '../../apiserver/filters/audit.js';
import { DebugSocket } from '../../apiserver/debug-socket.js';
import type { ServingOptions } from '../../apiserver/serving-options.js';
import { tlsCipherSuites, tlsMinVersion, tlsServingOptions } from '../../apiserver/tls-options.js';
import type { TlsServingOptions } from '../../apiserver/tls-options.js';
import { validateCorsAllowedOrigins } from '../../apiserver/filters/cors.js';
import type { AuditFlags } from './audit-flags.js';
import { setUpAudit } from './audit.js';
import type { Definition } from '../../apis/schema/types.js';
import type { RegistryResource } from '../../registry/resource.js';
import { privilegedGroupAuthorizer } from '../../auth/builtin-authorizers.js';
import { unionAuthorizer } from '../../auth/union-authorizer.js';
import { StatusError } from '../../machinery/errors.js';
import { FeatureGates } from '../../machinery/features.js';
import type { KubeObject } from '../../machinery/object.js';
import { serverUser } from '../../machinery/user.js';
import { localAPIServices } from '../../registry/resources/apiregistration/index.js';
import { systemPriorityClasses } from '../../registry/resources/scheduling/index.js';
import { GenericStore } from '../../registry/generic/store.js';
import { VersionedStore, servedVersionsOf } from '../../registry/versioned-store.js';
import { EncodingBudget, defaultEncodingBudgetBytes } from '../../storage/cacher/encoded-items.js';
import { KvObjectStore } from '../../storage/object-store.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import { openSqliteKv } from '../../storage/kv/sqlite/sqlite-kv.js';
import { pollStorageSizes } from '../../storage/size-poll.js';
import { storageCodec } from '../../storage/codec.js';
import { builtinStorageProtobuf } from './storage-media-type.js';
import type { StorageMediaType } from './storage-media-type.js';
import type { EtcdFlags } from './etcd-flags.js';
import { openEtcdStorage } from './etcd-storage.js';
import type { KvSnapshot, KvStore } from '../../storage/kv/types.js';
import { restoreSnapshot, snapshotOperation } from './snapshot.js';
import { watchCacheChoice } from './watch-cache-sizes.js';
import { FaultInjector } from '../../apiserver/faults/fault-injector.js';
import { followFaultsFile } from './faults-file.js';
import type { Logger } from '../../util/log.js';
import type { Clock } from '../../util/clock.js';
import { createLogger } from '../../util/log.js';
import type { NodeTemplate } from '../../nodes/index.js';
import { startControllers } from './controllers.js';
import type { ContainerRelay, NodePortsRelay } from '../../registry/resources/core/pod-connect.js';
import { startNodeProxies } from './node-proxies.js';
import { startApiserverService } from './apiserver-service.js';
import type { NodeProxies } from '../../proxy/node-proxies.js';
import { startComponentsThread } from './components-thread.js';
import type { ThreadFlags } from './components-thread.js';
import type { NodeIpamFlags } from '../node-ipam-flags.js';
import { RestClient } from '../../client/rest-client.js';
import { serveCustomResources } from './custom-resources.js';
import { flowControlFor, followFlowcontrolConfig } from './flowcontrol.js';
import { serviceResolver } from './service-resolver.js';
import { webhookPoster, type WebhookPoster } from '../../apiserver/webhook/post.js';
import { customResourceDefinitions, customResourceSchemas } from './custom-resource-schemas.js';
import { inProcessTransport, loopbackUser } from './in-process-transport.js';
import type { Transport } from '../../client/transport.js';
import { writeKubeconfig } from './kubeconfig.js';
import { prepareDataDir } from './data-dir.js';
import { ensurePki, loadPki } from './pki.js';
import type { Pki } from './pki.js';
import { servedResources } from './resources.js';
import { firstLayoutMoves, upgradeKeyLayout } from './key-layout.js';
import { serveAuthentication } from './authentication.js';
import type { ServiceAccountTokenFlags } from '../serviceaccount-tokens.js';
import { encryptionAtRest } from './encryption.js';
import type { EncryptionOptions } from './encryption.js';
import { componentStatusesEndpoint } from './componentstatuses.js';
import {
  bindingEndpoints,
  connectEndpoints,
  evictionEndpoint,
  reviewEndpoints,
  tokenEndpoint,
} from './computed-endpoints.js';
import { parseRuntimeConfig } from './runtime-config.js';
import type { RuntimeConfig } from './runtime-config.js';
import { versionInfo } from './version.js';
import { serviceAllocationHooks } from '../../registry/service-allocation/hooks.js';
import { AllocationCache } from '../../registry/service-allocation/cache.js';
import type { WriteHooks } from '../../registry/generic/hooks.js';
import { serviceAllocatorFactory } from './service-allocators.js';
import { defaultServiceClusterIPRange } from './flags.js';
import { ipAddressRecords, rangeKeyRecords } from '../../registry/service-allocation/ip-records.js';
import type { IPRecords } from '../../registry/service-allocation/ip-records.js';
import { repairAllocations, runRepairLoop } from '../../registry/service-allocation/repair.js';
import { authorizersFor, rbacEscalationHooks, startRbac } from './rbac.js';
import { nodeAuthorizer } from '../../auth/node/authorizer.js';
import { NodeGraph } from '../../auth/node/node-graph.js';
import { followNodeGraph } from './node-graph-feed.js';
import { parseAuthorizationModes } from './authorization-modes.js';

export interface ServerOptions {
  readonly dataDir: string;
  readonly storage: 'sqlite' | 'memory' | 'etcd';
  /** `--storage-media-type`: how built-in objects are stored (default JSON; both are read). */
  readonly storageMediaType?: StorageMediaType;
  /** `--etcd-*`: the etcd cluster of `--storage etcd`. */
  readonly etcd?: EtcdFlags;
  /** The lease endpoint reconciler's period and record TTL (default 10 s and 15 s; tests shorten them). */
  readonly endpointReconciler?: { readonly intervalMs?: number; readonly ttlSeconds?: number };
  readonly bindAddress: string;
  /** 0 picks a free port. */
  readonly securePort: number;
  /** Default: `<dataDir>/kubeconfig`. */
  readonly kubeconfigPath?: string;
  readonly featureGates?: Readonly<Record<string, boolean>>;
  readonly verbosity?: number;
  readonly log?: Logger;
  /** SQLite `synchronous` (default FULL). */
  readonly synchronous?: 'FULL' | 'NORMAL' | 'OFF';
  /** `--event-ttl`: Events expire this long after they are written (default 3600 s). */
  readonly eventTtlSeconds?: number;
  /** `--watch-cache`: a watch cache per resource (default true). */
  readonly watchCache?: boolean;
  /**
   * `--watch-cache-sizes`: `resource[.group]#size` over the defaults (`events#0`,
   * `events.events.k8s.io#0`); 0 turns a built-in resource's cache off.
   */
  readonly watchCacheSizes?: readonly string[];
  /** Run the built-in controllers in-process (default true); tests of raw API semantics turn them off. */
  readonly controllers?: boolean;
  /** `--controllers`: which controllers (kube-controller-manager's syntax; default `*`). */
  readonly controllerSelection?: string;
  /**
   * `--components-thread`: the controllers, scheduler and simulated nodes on a worker thread of
   * their own (default false here; `nanokube serve` turns it on from 100 simulated nodes).
   */
  readonly componentsThread?: boolean;
  /** `--net-thread`: TLS and HTTP on a worker thread of their own (ApiServer.listen's netThread). */
  readonly netThread?: boolean;
  /** `--nodes`: simulated nodes run in-process, with the scheduler (default 1; 0: none). */
  readonly nodes?: number;
  /** `--node-capacity`/`--node-labels`: what every simulated node is registered with. */
  readonly nodeTemplate?: NodeTemplate;
  /** `--node-ip`: the first simulated node's InternalIP per family, the primary first (NW-08). */
  readonly nodeIPs?: readonly string[];
  /** `--proxy-mode iptables`: every simulated node runs the proxy in-process (proxy/node-proxies.ts). */
  readonly proxyMode?: 'iptables';
  /** `--runtime-config`: group-versions to serve beyond (or instead of) the v1.27 defaults. */
  readonly runtimeConfig?: string;
  /** An audit policy and sink given in code (tests); the flags' policy file and log otherwise. */
  readonly audit?: AuditConfig;
  /** `--audit-policy-file` and `--audit-log-*` (AM-17). */
  readonly auditFlags?: AuditFlags;
  /** `--cors-allowed-origins`, validated by the flags (AM-22). */
  readonly corsAllowedOrigins?: readonly string[];
  /** `--profiling` (default true): profiles are served on `debugSocketPath`, never on the TCP port (AM-20). */
  readonly profiling?: boolean;
  /** `--debug-socket-path` / `--profiling-path`: the unix socket profiles are served on. */
  readonly debugSocketPath?: string;
  /** `--anonymous-auth`: requests without credentials are system:anonymous (default false in nanokube). */
  readonly anonymousAuth?: boolean;
  /** `--token-auth-file`: static bearer tokens (CSV: token,user,uid,"group1,group2"). */
  readonly tokenAuthFile?: string;
  /** `--service-account-*` and `--api-audiences`: service-account token issuing and validation. */
  readonly serviceAccountTokens?: ServiceAccountTokenFlags;
  /** `--authorization-mode`: authorizers after system:masters (default ['RBAC']; tests may pass AlwaysAllow). */
  readonly authorizationModes?: readonly string[];
  /** `--enable-priority-and-fairness` (default true; also needs the APIPriorityAndFairness gate). */
  readonly enablePriorityAndFairness?: boolean;
  /** `--max-requests-inflight` (default 400). */
  readonly maxRequestsInflight?: number;
  /** `--max-mutating-requests-inflight` (default 200). */
  readonly maxMutatingRequestsInflight?: number;
  /** Undelivered events after which a stalled watch is closed (default 10,000; tests shorten it). */
  readonly watchMaxQueuedEvents?: number;
  /** Interval of watch BOOKMARK events (default 60 s; tests shorten it). */
  readonly watchBookmarkIntervalMs?: number;
  /** How often `apiserver_storage_objects` is counted (default 60 s; tests shorten it). */
  readonly storageCountPollMs?: number;
  /** `--service-cluster-ip-range` (default 10.96.0.0/12): the `kubernetes` Service's cluster IP is its first address. */
  readonly serviceClusterIPRange?: string;
  /** `--service-node-port-range` (default 30000-32767): where NodePort Services' node ports come from. */
  readonly serviceNodePortRange?: string;
  /** `--advertise-address`: published in the `kubernetes` Endpoints (default: see flags.ts). */
  readonly advertiseAddress?: string;
  /** `--allocate-node-cidrs` with its `--cluster-cidr` and mask sizes: the nodeipam controller's options. */
  readonly nodeIpam?: NodeIpamFlags;
  /** `--encryption-provider-config` (encryption at rest, AM-10 for KMS v2). */
  readonly encryption?: EncryptionOptions;
  /** `--enable-admission-plugins`, `--disable-admission-plugins`, `--admission-control-config-file`. */
  readonly admission?: AdmissionFlags;
  /**
   * The PKI's directory (default `<dataDir>/pki`): clusters a test process starts share one CA and
   * its certificates this way instead of making keys for each.
   */
  readonly pkiDir?: string;
  /** The PKI already read from `pkiDir` (clusters of one process): not read from disk again. */
  readonly pki?: Pki;
  /**
   * The clock every time-based behaviour reads (default: the real one): timestamps the server
   * writes, Event TTLs, token expiry, and the in-process controllers, nodes and scheduler.
   */
  readonly clock?: Clock;
  /**
   * Storage to start from instead of an empty one (a bootstrapped cluster's, captured with
   * `captureBootstrap`): the bootstrap then finds its objects and writes nothing.
   */
  readonly initialState?: KvSnapshot;
  /** Receives the storage once the bootstrap objects are written, before anything else runs. */
  readonly captureBootstrap?: (state: KvSnapshot) => void;
  /** The controller manager's leader-election identity (default: derived from the data dir). */
  readonly leaderElectionIdentity?: string;
  /** `--faults`: a YAML file of fault rules, followed while serving. */
  readonly faultsFile?: string;
  /** `--tls-min-version`: upstream's names, VersionTLS10 to VersionTLS13 (default VersionTLS12). */
  readonly tlsMinVersion?: string;
  /** `--tls-cipher-suites`: Go's suite names (default: Node's suites; TLS 1.3's are always on). */
  readonly tlsCipherSuites?: readonly string[];
  /**
   * `--http2-max-streams-per-connection` and the connection timeouts and header limit (upstream's
   * by default; tests shorten the timeouts).
   */
  readonly serving?: Omit<ServingOptions, 'tls'>;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly kubeconfigPath: string;
  readonly pki: Pki;
  /** The API server itself. */
  readonly api: ApiServer;
  /**
   * Resources served from now on or no longer (the seam custom resources use): every served
   * version of `resource` with its schema definitions; discovery and OpenAPI follow at once.
   * Stored objects stay when a resource is removed.
   */
  readonly resources: {
    add(resource: RegistryResource, definitions?: readonly Definition[], decode?: BodyDecoder): void;
    remove(resource: RegistryResource, definitions?: readonly string[]): void;
  };
  /** The faults injected into requests: add rules from code; `--faults` rules are here too. */
  readonly faults: FaultInjector;
  /** The simulated nodes' proxies (`--proxy-mode iptables`). */
  readonly nodeProxies?: NodeProxies;
  /** The whole cluster's storage at its current revision (see snapshot.ts). */
  snapshot(): Promise<KvSnapshot>;
  /**
   * Puts a snapshot back: resolves with the new revision once every watch cache holds the
   * restored state; watches open until then end, and their clients relist after a 410 Gone.
   */
  restore(snapshot: KvSnapshot): Promise<number>;
  /** Drains requests, ends watches and closes the store. */
  close(): Promise<void>;
}

const bootstrapNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  // Mutable: the debug socket's /debug/flags/v changes it while serving (AM-20).
  const logOptions = { verbosity: o.verbosity ?? 0 };
  const log = o.log ?? createLogger(logOptions);
  // Refuse bad --authorization-mode values before anything is opened.
  const authorizationModes = parseAuthorizationModes((o.authorizationModes ?? ['RBAC']).join(','));
  const dataDir = resolve(o.dataDir);
  await prepareDataDir(dataDir);
  const features = new FeatureGates(o.featureGates ?? {});
  if (o.clock !== undefined && o.componentsThread === true)
    throw new Error('a clock of its own cannot drive the components thread (run them in-process)');
  const clockNow = o.clock !== undefined ? (): number => o.clock!.now() : undefined;
  const clockDate = clockNow !== undefined ? (): Date => new Date(clockNow()) : undefined;
  const pkiDir = resolve(o.pkiDir ?? join(dataDir, 'pki'));
  // Refused before anything is opened: unanchored CORS patterns (AM-22), a bad audit policy (AM-17).
  const corsErrors = validateCorsAllowedOrigins(o.corsAllowedOrigins ?? []);
  if (corsErrors.length > 0)
    throw new Error(corsErrors.length === 1 ? corsErrors[0] : `[${corsErrors.join(', ')}]`);
  // Refused before anything is opened too: TLS settings upstream would not serve with.
  const tls = tlsSettings(o, log);
  const auditSetup = await setUpAudit(o.auditFlags ?? {}, log);
  // Unknown admission plugins, a bad admission configuration file and a plugin refusing its
  // configuration stop the start before anything is opened. The plugins read the stores' watch
  // caches and ask the authorizer, both made below: they are reached lazily.
  const admissionPlan = await prepareAdmission(o.admission ?? {});
  // Faults: a bad --faults file stops the start before anything is opened.
  const faults = new FaultInjector();
  const stopFaultsFile = o.faultsFile !== undefined ? followFaultsFile(o.faultsFile, faults, log) : undefined;
  const stores = new Map<string, GenericStore>();
  // Resources registered while serving (custom resources): their stores, to stop on removal.
  const runtimeStores = new Map<string, GenericStore>();
  const late: { authorizer?: Authorizer } = {};
  // The in-process simulated nodes' containers, for pods/log, exec, the proxies and webhooks
  // served by their pods (set once they run).
  const containers: ContainerRelay = {};
  // A webhook client (admission, CRD conversion): Services resolved through the stores, and the
  // addresses of in-process simulated pods dialled in memory.
  const newWebhookPoster = (): WebhookPoster =>
    webhookPoster({
      resolveService: serviceResolver({
        services: storeOf('', 'services'),
        endpointSlices: stores.get('discovery.k8s.io/endpointslices'),
        endpoints: storeOf('', 'endpoints'),
      }),
      dial: (host, port) => containers.source?.dial(host, port),
    });
  // Admission webhooks' client: made on first use, when the stores it resolves Services through exist.
  let admissionPoster: WebhookPoster | undefined;
  const admissionWebhooks = (): WebhookPoster => (admissionPoster ??= newWebhookPoster());
  const admissionChain = setUpAdmission({
    names: admissionPlan.names,
    pluginConfig: admissionPlan.pluginConfig,
    stores: () => [...stores.values(), ...runtimeStores.values()],
    storeOf: (key) => stores.get(key) ?? runtimeStores.get(key),
    authorizer: { authorize: (attributes) => late.authorizer!.authorize(attributes) },
    webhooks: {
      post: (clientConfig, body, call) => admissionWebhooks()(clientConfig, body, call),
      forget: (key) => admissionPoster?.forget(key),
    },
    features,
    log: (m) => log.info(`admission: ${m}`),
  }).chain;
  const admission = admissionChain.validate;
  const mutatingAdmission = admissionChain.mutate;
  const auditConfig = o.audit ?? auditSetup.config;
  // A PKI already there is read and checked before anything is opened (a bad file stops the start
  // with nothing written); a missing one is made while the rest starts.
  const existingPki = o.pki ?? (await loadPki(pkiDir));
  const pkiPromise =
    existingPki !== undefined ? Promise.resolve(existingPki) : ensurePki(pkiDir, [o.bindAddress]);
  // Its failure is reported where it is awaited; until then it must not count as unhandled.
  pkiPromise.catch(() => undefined);
  // Encryption at rest: configured resources' values are transformed below the object store.
  const encryptionStop = new AbortController();
  const encryption = await encryptionAtRest({
    encryption: o.encryption,
    features,
    signal: encryptionStop.signal,
    log: (m) => log.error(m),
  }).catch((err: unknown) => {
    encryptionStop.abort();
    throw err;
  });
  const rawKv: KvStore =
    o.storage === 'etcd'
      ? await openEtcdStorage(o.etcd, {
          ...(o.watchMaxQueuedEvents !== undefined ? { watchMaxQueuedEvents: o.watchMaxQueuedEvents } : {}),
          log,
        }).catch((err: unknown) => {
          encryptionStop.abort();
          throw err;
        })
      : o.storage === 'memory'
        ? createMemoryKv({
            ...(o.watchMaxQueuedEvents !== undefined ? { watchMaxQueuedEvents: o.watchMaxQueuedEvents } : {}),
            ...(clockNow !== undefined ? { now: clockNow } : {}),
          })
        : await openSqliteKv({
            path: join(dataDir, 'state.db'),
            ...(o.watchMaxQueuedEvents !== undefined ? { watchMaxQueuedEvents: o.watchMaxQueuedEvents } : {}),
            ...(o.synchronous !== undefined ? { synchronous: o.synchronous } : {}),
            ...(clockNow !== undefined ? { now: clockNow } : {}),
            onError: (err) => log.error(`storage: ${err instanceof Error ? err.message : String(err)}`),
          }).catch((err: unknown) => {
            encryptionStop.abort();
            throw err;
          });
  const kv = encryption.wrap(rawKv);
  if (o.initialState !== undefined) await kv.restore(o.initialState);
  const relaid = await upgradeKeyLayout(kv, servedResources()).catch(async (err: unknown) => {
    await kv.close();
    encryptionStop.abort();
    throw err;
  });
  if (relaid > 0) log.info(`storage: moved ${relaid} keys to kube-apiserver's key layout`);
  const codec = storageCodec({
    protobuf: builtinStorageProtobuf,
    writeProtobuf: o.storageMediaType === 'application/vnd.kubernetes.protobuf',
  });
  const storage = new KvObjectStore(kv, { codec, ...(clockNow !== undefined ? { now: clockNow } : {}) });
  const storeOf = (group: string, resource: string): GenericStore => stores.get(`${group}/${resource}`)!;
  const background = new AbortController();
  pollStorageSizes(kv, { signal: background.signal });
  // Services take cluster IPs and node ports in the same transaction as their writes (NW-03).
  const serviceAllocators = serviceAllocatorFactory({
    serviceClusterIPRange: o.serviceClusterIPRange ?? defaultServiceClusterIPRange,
    ...(o.serviceNodePortRange !== undefined ? { serviceNodePortRange: o.serviceNodePortRange } : {}),
    features,
  });
  // With MultiCIDRServiceAllocator (and networking.k8s.io/v1alpha1 served) addresses are recorded
  // as IPAddress objects, otherwise as range keys; the repair removes the other kind.
  const ipAddressMode = (): boolean =>
    features.enabled('MultiCIDRServiceAllocator') && runtimeConfig.enabled('networking.k8s.io', 'v1alpha1');
  const ipRecords = (): IPRecords => (ipAddressMode() ? ipAddressRecords : rangeKeyRecords);
  // Authorization: system:masters first, then the --authorization-mode authorizers (RBAC by default).
  const rbac = startRbac({ storage, signal: background.signal, log });
  let nodeGraph: { ready: Promise<void>; done: Promise<void> } | undefined;
  const authorizer = unionAuthorizer([
    privilegedGroupAuthorizer(),
    ...authorizersFor(authorizationModes, {
      rbac: rbac.authorizer,
      node: () => {
        const graph = new NodeGraph();
        nodeGraph = followNodeGraph({ storage, graph, signal: background.signal, log });
        return nodeAuthorizer(graph);
      },
    }),
  ]);
  late.authorizer = authorizer;
  const hooksOf = (resource: RegistryResource): WriteHooks | undefined => {
    const escalation = rbacEscalationHooks(resource.info, authorizer, rbac.authorizer);
    if (escalation !== undefined) return escalation;
    if (resource.info.group !== '' || resource.info.resource !== 'services') return undefined;
    const records = ipRecords();
    // What is taken, kept in memory and followed by watches (writes plan on a fork of it).
    const cache = new AllocationCache({
      kv,
      allocators: serviceAllocators,
      records,
      signal: background.signal,
    });
    return serviceAllocationHooks({ kv, allocators: serviceAllocators, ipRecords: records, cache });
  };
  // The encoded list items the watch caches keep (encoded-items.ts), one budget for all of them.
  const encodingBudget = new EncodingBudget(defaultEncodingBudgetBytes);
  const watchCaches = watchCacheChoice({
    ...(o.watchCache !== undefined ? { enabled: o.watchCache } : {}),
    ...(o.watchCacheSizes !== undefined ? { sizes: o.watchCacheSizes } : {}),
  });
  for (const resource of watchCaches.droppedSizes) {
    log.info(`Dropping watch-cache-size for ${resource} - watchCache size is now dynamic`);
  }
  /** The endpoints of one stored resource: one per served version, over one generic store. */
  const endpointsOf = (
    resource: RegistryResource,
    decode?: BodyDecoder,
  ): { store: GenericStore; endpoints: Endpoint[] } => {
    const hooks = hooksOf(resource);
    const store = new GenericStore({
      resource,
      storage,
      features,
      admission,
      mutatingAdmission,
      encodingBudget,
      ...(watchCaches.cached(resource.info, resource.info.unstructured === true)
        ? {}
        : { watchCache: false as const }),
      ...(hooks !== undefined ? { hooks } : {}),
      ...(clockDate !== undefined ? { clock: clockDate } : {}),
    });
    const endpoints = servedVersionsOf(resource).map((version) => ({
      info: version.info,
      store: new VersionedStore(store, version),
      ...(decode !== undefined ? { decode } : {}),
    }));
    return { store, endpoints };
  };
  const runtimeConfig = parseRuntimeConfig(o.runtimeConfig ?? '');
  const endpoints: Endpoint[] = [];
  for (const known of servedResources()) {
    // Events are the one kind with a TTL (kube-apiserver's --event-ttl).
    const withTtl =
      known.ttlSeconds !== undefined && o.eventTtlSeconds !== undefined
        ? { ...known, ttlSeconds: o.eventTtlSeconds }
        : known;
    const resource = enabledVersions(withTtl, runtimeConfig, features);
    if (resource === undefined) continue;
    const built = endpointsOf(resource);
    stores.set(`${resource.info.group}/${resource.info.resource}`, built.store);
    endpoints.push(...built.endpoints);
  }
  for (const store of stores.values()) store.startWatchCache();
  // Authentication: client certificates, bearer tokens (token file, service-account tokens).
  const authentication = serveAuthentication({
    pkiDir,
    ...(clockNow !== undefined ? { now: clockNow } : {}),
    anonymous: o.anonymousAuth ?? false,
    ...(o.tokenAuthFile !== undefined ? { tokenAuthFile: o.tokenAuthFile } : {}),
    ...(o.serviceAccountTokens !== undefined ? { serviceAccounts: o.serviceAccountTokens } : {}),
    features,
    stores: {
      serviceAccounts: storeOf('', 'serviceaccounts'),
      pods: storeOf('', 'pods'),
      secrets: storeOf('', 'secrets'),
    },
    log,
  });
  // host:port clients reach this server at (known once listening): the default jwks_uri's.
  let externalAddress = `${o.bindAddress}:${o.securePort}`;
  const evictionEndpoints = (): VirtualEndpoint[] => {
    const budgets = stores.get('policy/poddisruptionbudgets');
    return budgets === undefined ? [] : [evictionEndpoint(storeOf('', 'pods'), budgets, features, clockDate)];
  };
  // What the simulated nodes' proxies serve on their ports, for nodes/proxy (set once they run).
  const nodePorts: NodePortsRelay = {};
  const virtualEndpoints = [
    ...reviewEndpoints(authorizer, {
      authenticator: authentication.authenticator,
      apiAudiences: authentication.apiAudiences,
    }).filter(
      (e) =>
        runtimeConfig.enabled(e.info.group, e.info.version) &&
        (e.info.kind !== 'SelfSubjectReview' || features.enabled('APISelfSubjectReview')),
    ),
    ...bindingEndpoints(storeOf('', 'pods'), clockDate),
    ...evictionEndpoints(),
    ...connectEndpoints({
      pods: storeOf('', 'pods'),
      nodes: storeOf('', 'nodes'),
      services: storeOf('', 'services'),
      endpoints: storeOf('', 'endpoints'),
      output: containers,
      nodePorts,
      ...(clockNow !== undefined ? { now: clockNow } : {}),
      // Which logs were made up, for whoever must tell (scripts/conformance.sh reads it at -v 2).
      onGeneratedLogs: (ns, pod, container) =>
        log.v(
          2,
          `pods/log ${ns}/${pod} container ${container}: generated lines (the simulated node does not follow its program)`,
        ),
    }),
    tokenEndpoint(
      {
        serviceAccounts: storeOf('', 'serviceaccounts'),
        pods: storeOf('', 'pods'),
        secrets: storeOf('', 'secrets'),
      },
      authentication.issuer,
      clockNow,
    ),
    componentStatusesEndpoint(async () => {
      await kv.currentRevision();
      return true;
    }),
  ].map((e) => admitVirtualEndpoint(e, admissionChain));
  const servedGroupVersions = new Map(
    [...endpoints, ...virtualEndpoints].map((e) => [`${e.info.group}/${e.info.version}`, e.info]),
  );
  // APF's bootstrap configuration (the levels, then the schemas), when the group is served.
  const ensureFlowcontrolBootstrap = async (): Promise<void> => {
    const levels = stores.get('flowcontrol.apiserver.k8s.io/prioritylevelconfigurations');
    const schemas = stores.get('flowcontrol.apiserver.k8s.io/flowschemas');
    const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
    if (levels !== undefined) await ensureObjects(levels, priorityLevels);
    if (schemas !== undefined) await ensureObjects(schemas, flowSchemas);
  };
  await Promise.all([
    ensureObjects(
      storeOf('', 'namespaces'),
      bootstrapNamespaces.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
      // The RBAC bootstrap policy (roles in kube-system and kube-public need their namespaces).
    ).then(() => rbac.bootstrap(stores)),
    ensureObjects(storeOf('scheduling.k8s.io', 'priorityclasses'), systemPriorityClasses()),
    ensureFlowcontrolBootstrap(),
    // Local APIServices for every served group-version, as kube-apiserver's aggregator registers them.
    ensureObjects(
      storeOf('apiregistration.k8s.io', 'apiservices'),
      localAPIServices([...servedGroupVersions.values()]),
    ),
  ]);
  // Upstream's repair controllers for Service IPs and node ports: once before serving, then every 3 minutes.
  const repairOptions = {
    kv,
    allocators: serviceAllocators,
    ipRecords: ipRecords(),
    staleIPRecords: ipAddressMode() ? rangeKeyRecords : ipAddressRecords,
    log: (message: string) => log.info(`service allocation repair: ${message}`),
    codec,
  };
  await repairAllocations(repairOptions).catch((err: unknown) =>
    log.error(`service allocation repair: ${err instanceof Error ? err.message : String(err)}`),
  );
  if (o.captureBootstrap !== undefined) o.captureBootstrap(await kv.snapshot());
  const repairRun = runRepairLoop({ ...repairOptions, signal: background.signal, waitFirst: true });
  const schemas = new ServerSchemaRegistry(builtinSchemas);
  // AM-07: policies' type-checking status, written by the server as upstream's policy controller.
  const policyStore = stores.get('admissionregistration.k8s.io/validatingadmissionpolicies');
  const policyStatus =
    policyStore !== undefined && features.enabled('ValidatingAdmissionPolicy')
      ? followPolicyStatus({
          policies: policyStore,
          storage,
          stores: () => [...stores.values(), ...runtimeStores.values()],
          schemas,
          signal: background.signal,
          log,
        })
      : undefined;
  // The first request already sees the bootstrap policy (and the Node authorizer its graph).
  await Promise.all([rbac.ready, nodeGraph?.ready]);
  const inFlight = {
    nonMutating: o.maxRequestsInflight ?? 400,
    mutating: o.maxMutatingRequestsInflight ?? 200,
  };
  const flowControl = flowControlFor({
    features,
    runtimeConfig,
    enabled: o.enablePriorityAndFairness,
    serverConcurrencyLimit: inFlight.nonMutating + inFlight.mutating,
    log,
  });

  const restore = (snapshot: KvSnapshot): Promise<number> =>
    restoreSnapshot({
      kv,
      snapshot,
      stores: () => [...stores.values(), ...runtimeStores.values()],
      firstLayoutMoves: firstLayoutMoves(servedResources()),
    });
  const storageCheck = {
    name: 'etcd',
    check: async (): Promise<void> => {
      await kv.currentRevision();
    },
  };
  const server = new ApiServer({
    operations: [snapshotOperation({ save: () => kv.snapshot(), restore })],
    faults,
    ...(flowControl !== undefined ? { flowControl } : {}),
    inFlight,
    endpoints,
    schemas,
    features,
    authenticator: authentication.authenticator,
    authorizer,
    // Service-account issuer discovery; jwks_uri defaults to this server's address.
    documents: authentication.documents(() => externalAddress),
    virtualEndpoints,
    ...(o.watchBookmarkIntervalMs !== undefined
      ? { watchBookmarkIntervalMs: o.watchBookmarkIntervalMs }
      : {}),
    ...(auditConfig !== undefined ? { audit: auditConfig } : {}),
    ...(o.corsAllowedOrigins !== undefined ? { corsAllowedOrigins: o.corsAllowedOrigins } : {}),
    ...(o.storageCountPollMs !== undefined ? { storageCountPollMs: o.storageCountPollMs } : {}),
    version: versionInfo(),
    health: {
      // Upstream's etcd check is on /livez as well as /readyz: a server that cannot reach its
      // storage is restarted by a supervisor watching /livez.
      livez: [storageCheck, ...encryption.healthChecks],
      readyz: [storageCheck, ...encryption.healthChecks],
    },
    log,
  });
  const pki = await pkiPromise;
  // What start-up began below the API server, released last by close() and by a failed listen.
  const releaseCore = async (): Promise<void> => {
    admissionPoster?.close();
    await auditSetup.close();
    background.abort();
    await rbac.done;
    await nodeGraph?.done;
    await policyStatus?.done;
    await repairRun;
    await kv.close();
    encryptionStop.abort();
  };
  const port = await server
    .listen({
      host: o.bindAddress,
      port: o.securePort,
      tls: { key: pki.servingKey, cert: pki.servingCert, ca: pki.caCert },
      serving: { ...o.serving, tls },
      ...(o.netThread === true ? { netThread: true } : {}),
    })
    .catch(async (err: unknown) => {
      // Nothing listens (a taken port): undo what start-up began, so that a library caller's
      // process is not kept alive by it, then fail as listen(2) did.
      stopFaultsFile?.();
      await server.close(0);
      await releaseCore();
      throw err;
    });
  const debugSocket =
    o.profiling !== false && o.debugSocketPath !== undefined && o.debugSocketPath !== ''
      ? new DebugSocket({
          path: o.debugSocketPath,
          log,
          ...(o.log === undefined ? { setVerbosity: (v: number) => (logOptions.verbosity = v) } : {}),
        })
      : undefined;
  await debugSocket?.listen();
  const host = o.bindAddress === '0.0.0.0' || o.bindAddress === '::' ? '127.0.0.1' : o.bindAddress;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  externalAddress = new URL(url).host;
  const kubeconfigPath = resolve(o.kubeconfigPath ?? join(dataDir, 'kubeconfig'));
  await writeKubeconfig(kubeconfigPath, url, pki);
  const runtimeKey = (r: RegistryResource): string => `${r.info.group}/${r.info.resource}`;
  const addResource = (
    resource: RegistryResource,
    definitions: readonly Definition[],
    decode?: BodyDecoder,
  ) => {
    schemas.add(definitions);
    const built = endpointsOf(resource, decode);
    runtimeStores.get(runtimeKey(resource))?.stop();
    runtimeStores.set(runtimeKey(resource), built.store);
    built.store.startWatchCache();
    for (const e of built.endpoints) server.addEndpoint(e);
  };
  const removeResource = (resource: RegistryResource, definitions: readonly string[]) => {
    for (const v of servedVersionsOf(resource)) server.removeEndpoint(v.info);
    schemas.remove(definitions);
    runtimeStores.get(runtimeKey(resource))?.stop();
    runtimeStores.delete(runtimeKey(resource));
  };
  // The apiextensions-apiserver half: CRDs' custom resources, always running (not leader-elected).
  const customResources = runtimeConfig.enabled('apiextensions.k8s.io', 'v1')
    ? serveCustomResources({
        client: new RestClient({ transport: inProcessTransports(server)('nanokube-apiextensions') }),
        resources: { add: addResource, remove: removeResource },
        schemas: customResourceSchemas,
        definitions: customResourceDefinitions,
        ...(o.clock !== undefined ? { clock: o.clock } : {}),
        conversionPost: newWebhookPoster(),
        log,
      })
    : undefined;
  const flowcontrolConfig =
    flowControl === undefined
      ? undefined
      : followFlowcontrolConfig(
          flowControl,
          new RestClient({
            transport: inProcessTransports(server)('api-priority-and-fairness-config-consumer-v1'),
          }),
          log,
        );
  const componentFlags: ThreadFlags = {
    securePort: port,
    bindAddress: o.bindAddress,
    ...(o.serviceClusterIPRange !== undefined ? { serviceClusterIPRange: o.serviceClusterIPRange } : {}),
    ...(o.advertiseAddress !== undefined ? { advertiseAddress: o.advertiseAddress } : {}),
    ...(o.nodeIpam !== undefined ? { nodeIpam: o.nodeIpam } : {}),
    ...(o.controllerSelection !== undefined ? { controllers: o.controllerSelection } : {}),
    ...(o.nodes !== undefined ? { nodes: o.nodes } : {}),
    ...(o.nodeTemplate !== undefined ? { nodeTemplate: o.nodeTemplate } : {}),
    ...(o.nodeIPs !== undefined ? { nodeIPs: o.nodeIPs } : {}),
    ...(o.featureGates !== undefined ? { featureGates: o.featureGates } : {}),
    dataDir,
    pkiDir,
    ...(o.leaderElectionIdentity !== undefined ? { identity: o.leaderElectionIdentity } : {}),
    serviceAccountPrivateKeyPem: authentication.serviceAccountKeyPem,
  };
  const componentCredentials = { server: url, ca: pki.caCert, cert: pki.adminCert, key: pki.adminKey };
  const controllers =
    o.controllers === false
      ? { stop: () => Promise.resolve() }
      : o.componentsThread === true
        ? startComponentsThread({
            server,
            user: loopbackUser(),
            credentials: componentCredentials,
            flags: componentFlags,
            log,
          })
        : startControllers(
            componentCredentials,
            log,
            { ...componentFlags, ...(o.clock !== undefined ? { clock: o.clock } : {}) },
            inProcessTransports(server),
            containers,
          );
  if ('started' in controllers) await controllers.started;
  // The kubernetes Service and its Endpoints: part of the API server (its lease reconciler keeps
  // a record in storage), in this thread whether or not the components have one of their own.
  const apiserverService =
    o.controllers === false
      ? undefined
      : startApiserverService({
          transport: inProcessTransports(server)('kube-apiserver'),
          kv,
          securePort: port,
          bindAddress: o.bindAddress,
          ...(o.serviceClusterIPRange !== undefined
            ? { serviceClusterIPRange: o.serviceClusterIPRange }
            : {}),
          ...(o.advertiseAddress !== undefined ? { advertiseAddress: o.advertiseAddress } : {}),
          ...(o.endpointReconciler?.intervalMs !== undefined
            ? { intervalMs: o.endpointReconciler.intervalMs }
            : {}),
          ...(o.endpointReconciler?.ttlSeconds !== undefined
            ? { leaseTTLSeconds: o.endpointReconciler.ttlSeconds }
            : {}),
          ...(o.clock !== undefined ? { clock: o.clock } : {}),
          log,
        });
  const nodeProxies =
    o.proxyMode === 'iptables' && o.controllers !== false && (o.nodes ?? 1) > 0
      ? startNodeProxies({
          transport: inProcessTransports(server)('kube-proxy'),
          nodes: o.nodes ?? 1,
          families: (o.serviceClusterIPRange ?? defaultServiceClusterIPRange)
            .split(',')
            .map((cidr) => (isIPv6(cidr.split('/')[0] ?? '') ? 'IPv6' : 'IPv4')),
          relay: nodePorts,
          log,
          ...(o.clock !== undefined ? { clock: o.clock } : {}),
        })
      : undefined;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    kubeconfigPath,
    pki,
    api: server,
    resources: {
      add: (resource, definitions = [], decode) => addResource(resource, definitions, decode),
      remove: (resource, definitions = []) => removeResource(resource, definitions),
    },
    faults,
    ...(nodeProxies !== undefined ? { nodeProxies: nodeProxies.proxies } : {}),
    snapshot: () => kv.snapshot(),
    restore,
    close() {
      closing ??= (async () => {
        stopFaultsFile?.();
        await nodeProxies?.stop();
        await apiserverService?.stop();
        await controllers.stop();
        await customResources?.stop();
        await flowcontrolConfig?.stop();
        await server.close();
        await debugSocket?.close();
        await releaseCore();
      })();
      return closing;
    },
  };
}

/**
 * The resource with only the served versions --runtime-config enables, or undefined when none is
 * (or its feature gate is off). The storage version stays as it is even when not served.
 */
function enabledVersions(
  resource: RegistryResource,
  runtimeConfig: RuntimeConfig,
  features: FeatureGates,
): RegistryResource | undefined {
  if (resource.featureGate !== undefined && !features.enabled(resource.featureGate)) return undefined;
  const versions = servedVersionsOf(resource).filter((v) =>
    runtimeConfig.enabled(v.info.group, v.info.version),
  );
  if (versions.length === 0) return undefined;
  return { ...resource, servedVersions: versions };
}

/** Creates the bootstrap objects (cluster-scoped) that are missing: one list on a restart, no writes. */
async function ensureObjects(store: GenericStore, objects: readonly KubeObject[]): Promise<void> {
  const existing = new Set((await store.list('', {})).items.map((o) => o.metadata.name));
  await Promise.all(
    objects
      .filter((o) => !existing.has(o.metadata.name))
      .map(async (o) => {
        try {
          await store.create('', o, { dryRun: false, user: serverUser });
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 409)) throw err;
        }
      }),
  );
}

/** `--tls-min-version` and `--tls-cipher-suites` for the listener; upstream's warning per insecure suite. */
function tlsSettings(o: ServerOptions, log: Logger): TlsServingOptions {
  const minVersion = tlsMinVersion(o.tlsMinVersion ?? '');
  if (o.tlsCipherSuites === undefined || o.tlsCipherSuites.length === 0)
    return tlsServingOptions({ minVersion });
  const suites = tlsCipherSuites(o.tlsCipherSuites);
  for (const name of suites.insecure) log.info(`Use of insecure cipher '${name}' detected.`);
  return tlsServingOptions({ minVersion, ciphers: suites.openssl });
}

/** The in-process components' transports: one loopback identity, each its own user agent. */
function inProcessTransports(server: ApiServer): (userAgent: string) => Transport {
  const user = loopbackUser();
  return (userAgent) => inProcessTransport(server, { user, userAgent });
}
