/**
 * Simulated nodes (the kwok use case, in-process): N Node objects registered and kept
 * alive as kubelets would (Lease heartbeats in `kube-node-lease`, periodic status reports), and
 * every pod bound to one of them taken through its lifecycle by writing pods/status as the
 * kubelet does — Pending (ContainerCreating) → Running with pod IPs from the node's podCIDR(s)
 * (dual-stack, NW-08) → ready (at once, or after the readiness probe's initial delay) →
 * Succeeded for pods that run to completion (restartPolicy Never/OnFailure) after
 * `jobPodDurationMs`. A pod being deleted has its containers stopped (terminal status) and is then
 * deleted with gracePeriodSeconds=0, as the kubelet finishes a graceful deletion.
 *
 * Cheap at scale: one shared pod informer and one work queue for all nodes (per-pod work is O(1)),
 * one ticker for every node's heartbeat, and bounded parallelism for registrations and renewals.
 * Only `client/` is used, so this runs against any API server (`nanokube nodes --kubeconfig`).
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { ApiError } from '../client/api-error.js';
import type { SharedInformerFactory } from '../client/informer-factory.js';
import type { RestClient } from '../client/rest-client.js';
import type { SharedInformer } from '../client/shared-informer.js';
import { WorkQueue } from '../client/workqueue.js';
import { LegacyEventRecorder } from '../client/legacy-event-recorder.js';
import { realClock } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { threadStrings } from '../util/string-interner.js';
import { addToIp, addressIn, cidrSize, formatCidr, parseCidr, subnet, subnetCount } from './cidr.js';
import type { Cidr } from './cidr.js';
import { metaOf, numAt, objAt, objsAt, strAt, strsAt, stringMap } from './json.js';
import {
  defaultCapacity,
  leaseNamespace,
  leaseObject,
  nodeConditions,
  nodeObject,
  nodeStatus,
} from './node-object.js';
import type { NodeIdentity, NodeTemplate } from './node-object.js';
import { PodSim } from './containers/pod-sim.js';
import { PodHttp } from './pod-http.js';
import { ClusterNetwork } from './network/cluster-network.js';
import { ensureDnsService } from './network/dns-service.js';
import type { PodHttpOutcome, SimConnection, SimHttpRequest } from '../machinery/http-exchange.js';
import { nodeEtcHosts } from './containers/etc-hosts.js';
import { networkCommands } from './containers/net-tools.js';
import type { ContainerOutput, PodExecOutcome } from './containers/pod-sim.js';
import { envSourceKeys } from './containers/container-run.js';
import { tokenRequests, volumeSourceKeys } from './containers/volume-data.js';
import { readsApiVolumes } from './containers/volume-readers.js';
import { decodeBytes } from './containers/bytes.js';
import { kubeletAdmit, rejectedStatus } from './kubelet-admission.js';
import type { Rejection } from './kubelet-admission.js';
import { nodeView } from './scheduler/node-info.js';
import { hostPortsOf, parsePod } from './scheduler/pod-info.js';
import type { EnvContext } from './containers/container-run.js';
import { serviceEnv } from './containers/service-env.js';
import { pendingStatus, terminatedStatus } from './pod-status.js';
import type { PodRuntime } from './pod-status.js';
import {
  actuate,
  admitResize,
  allocate,
  allocatedPodRequests,
  initialRuntimes,
  resizeDone,
  resizeRequested,
  withRuntimes,
} from './resize.js';
import type { ContainerRuntime, ResizeStatus } from './resize.js';
import { resourceList } from './resources.js';
import type { ResourceList } from './resources.js';

export type { NodeTemplate } from './node-object.js';

export interface SimulatedNodesOptions {
  readonly client: Pick<RestClient, 'request'>;
  readonly informers: SharedInformerFactory;
  /** How many nodes (`nanokube-node-0`, `-1`, ...); ignored when `names` is given. Default 1. */
  readonly count?: number;
  readonly names?: readonly string[];
  readonly nodeTemplate?: NodeTemplate;
  /**
   * Cluster pod CIDRs, at most one per family (dual-stack: IPv4 and IPv6); each node gets the
   * next subnet of each (default `10.244.0.0/16`).
   */
  readonly podCIDRs?: readonly string[];
  /** Prefix length of a node's subnet per cluster CIDR (default 24 for IPv4, 64 for IPv6). */
  readonly nodeCIDRMaskSizes?: readonly number[];
  /**
   * The first node's InternalIP per family (dual-stack, NW-08); later nodes count up from it
   * (default `172.18.0.2`).
   */
  readonly nodeIPs?: readonly string[];
  /** Lease renewal interval (default 10 s, the kubelet's for a 40 s lease). */
  readonly heartbeatIntervalMs?: number;
  readonly leaseDurationSeconds?: number;
  /** Node status (conditions' heartbeats) written this often (default 60 s). */
  readonly statusReportIntervalMs?: number;
  /**
   * Time a pod spends Pending with its containers in ContainerCreating (default 0: straight to
   * Running, saving one status write per pod).
   */
  readonly containerCreatingMs?: number;
  /** Run time of pods that run to completion before they succeed (default 5 s). */
  readonly jobPodDurationMs?: number;
  /** Parallel pod status writers (default 16). */
  readonly workers?: number;
  /** Parallel node registrations and heartbeats (default 16). */
  readonly concurrency?: number;
  /**
   * The kubelet's container events (Pulled, Created, Started, Killing, BackOff, Failed) as core/v1
   * Events from `kubelet` on the node (default true; about three writes per container start).
   */
  readonly recordEvents?: boolean;
  /**
   * The cluster DNS server's address the kubelets are configured with (their clusterDNS): pods
   * with `dnsPolicy: ClusterFirst` get it in /etc/resolv.conf, the nodes answer DNS there
   * (network/cluster-dns.ts) and keep the `kube-system/kube-dns` Service at it. Default none:
   * such pods' resolv.conf is the node's, which the simulator does not know.
   */
  readonly clusterDNS?: readonly string[];
  readonly clock?: Clock;
  readonly onError?: (err: unknown) => void;
}

const podsPath = '/api/v1/pods';
const servicesPath = '/api/v1/services';
const endpointSlicesPath = '/apis/discovery.k8s.io/v1/endpointslices';
/** The EndpointSlices' index by the Service they belong to (`ns/name`). */
const sliceServiceIndex = 'service';
const nodesPath = '/api/v1/nodes';
const leasesPath = `/apis/coordination.k8s.io/v1/namespaces/${leaseNamespace}/leases`;
const smp = 'application/strategic-merge-patch+json';
/**
 * The answer a write needs when only its metadata is read (client-go's metadata client asks the
 * same way): the server sends PartialObjectMetadata instead of the whole object, which spares it
 * encoding, and this side decoding, a pod's spec and status on every status write.
 */
const metadataOnly = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

interface SimNode {
  readonly id: NodeIdentity;
  uid: string;
  cidrs: Cidr[];
  /** Usable pod addresses per family (offsets 2 .. size-2). */
  poolSize: number;
  readonly used: Set<number>;
  next: number;
  leaseResourceVersion: string | undefined;
  registeredAt: number;
  registered: boolean;
  /** Deleted by someone: no more heartbeats or pods. */
  gone: boolean;
  /** The node's hostPath files, which its pods' scripts write and read. */
  readonly files: Map<string, string>;
  /** The kubelet's event recorder (source.host is the node); undefined when events are off. */
  readonly events: LegacyEventRecorder | undefined;
}

type Stage = 'new' | 'pending' | 'running' | 'terminated' | 'deleting';

interface PodState {
  readonly uid: string;
  readonly node: string;
  readonly rt: PodRuntime;
  /** Offset of the pod's addresses in the node's pool (undefined: host network or adopted). */
  offset: number | undefined;
  stage: Stage;
  /** When the current stage began. */
  stageAt: number;
  /** Whether the pod was running before this node started: its programs are not followed. */
  readonly adopted: boolean;
  /** The containers' lives, from when they start. */
  sim: PodSim | undefined;
  /**
   * The status we last wrote, while the informer's copy may lag it: dropped once the informer
   * shows the pod at the resourceVersion that write made (`writtenVersion`).
   */
  lastStatus: JsonObject | undefined;
  writtenVersion: string | undefined;
  /** A digest of the simulation's status we last wrote: an unchanged one is not written again. */
  lastSimStatus: string | undefined;
  /** Per container: allocated and applied resources, restarts (in-place resize, AM-01). */
  readonly containers: Map<string, ContainerRuntime>;
  /** The resize state we report (status.resize); undefined: none. */
  resize: ResizeStatus | undefined;
  /** Tokens requested for the pod's projected serviceAccountToken sources. */
  tokens?: ReadonlyMap<string, string>;
  /** When the API volumes were last read, and the labels and annotations they were read with. */
  volumesReadAt?: number;
  volumesMeta?: string;
}

/** What a pod whose containers read no ConfigMap, Secret or token gets: one empty map for all. */
const noSources: ReadonlyMap<string, Readonly<Record<string, string>> | null> = new Map();
const noTokens: ReadonlyMap<string, string> = new Map();

/** How often a running pod's API volumes are re-read while a container's output follows them. */
const volumeSyncMs = 5000;

/**
 * A digest of a status as JSON: what is kept to tell whether the next one differs (the text itself
 * is about a kilobyte per pod, held for every pod of the node).
 */
function statusDigest(status: JsonObject): string {
  return createHash('sha1').update(JSON.stringify(status)).digest('base64');
}

/**
 * A status as a strategic merge patch: conditions merge by type, so a reason or message a condition
 * had and no longer has is cleared with null (as the kubelet's two-way patch clears it); otherwise
 * a Ready condition turned True would keep the ContainersNotReady reason of its False days.
 */
function clearingPatch(status: JsonObject): JsonObject {
  const conditions = status['conditions'];
  if (!Array.isArray(conditions)) return status;
  return {
    ...status,
    conditions: conditions.map((c) =>
      isJsonObject(c) ? { ...c, reason: c['reason'] ?? null, message: c['message'] ?? null } : c,
    ),
  };
}

/** What downward API volumes show of a pod's metadata, as one comparable string. */
function labelsAndAnnotations(pod: JsonObject): string {
  const meta = metaOf(pod);
  // Kept per pod: the pods of one template share one copy.
  return threadStrings.string(JSON.stringify([meta['labels'] ?? null, meta['annotations'] ?? null]));
}

/** Whether a container's command or args name a network tool (a script that may ask the network). */
function mentionsNetworkTool(container: JsonObject): boolean {
  const words = [...strsAt(container, 'command'), ...strsAt(container, 'args')].join(' ').split(/[^\w-]+/);
  return words.some((w) => networkCommands.includes(w));
}

function isCode(err: unknown, ...codes: number[]): boolean {
  return err instanceof ApiError && codes.includes(err.code);
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let i = 0;
  const worker = async (): Promise<void> => {
    while (i < items.length) await fn(items[i++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function timeMs(v: string | undefined, fallback: number): number {
  const t = v === undefined ? NaN : Date.parse(v);
  return Number.isNaN(t) ? fallback : t;
}

/** Each node's podCIDRs and InternalIPs from the options; throws when a range is too small. */
export function planNodes(
  names: readonly string[],
  o: Pick<SimulatedNodesOptions, 'podCIDRs' | 'nodeCIDRMaskSizes' | 'nodeIPs'>,
): NodeIdentity[] {
  const clusters = (o.podCIDRs ?? ['10.244.0.0/16']).map(parseCidr);
  if (clusters.length > 2 || (clusters.length === 2 && clusters[0]!.family === clusters[1]!.family)) {
    throw new Error('podCIDRs: at most one CIDR per IP family');
  }
  const masks = clusters.map((c, i) => o.nodeCIDRMaskSizes?.[i] ?? (c.family === 4 ? 24 : 64));
  clusters.forEach((c, i) => {
    const mask = masks[i]!;
    if (subnetCount(c, mask) < names.length) {
      throw new Error(
        `podCIDR ${formatCidr(c)} holds ${subnetCount(c, mask)} /${mask} node subnets, fewer than ${names.length} nodes`,
      );
    }
  });
  const firstIPs = o.nodeIPs ?? ['172.18.0.2'];
  return names.map((name, i) => ({
    name,
    addresses: firstIPs.map((ip) => addToIp(ip, i)),
    podCIDRs: clusters.map((c, j) => formatCidr(subnet(c, masks[j]!, i))),
  }));
}

/** The names `count` simulated nodes get when not given theirs: `nanokube-node-0`, `-1`, ... */
export function simulatedNodeNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `nanokube-node-${i}`);
}

export class SimulatedNodes {
  readonly #o: SimulatedNodesOptions;
  readonly #clock: Clock;
  readonly #template: NodeTemplate;
  readonly #nodes = new Map<string, SimNode>();
  readonly #pods = new Map<string, PodState>();
  /**
   * The keys of #pods by node: a kubelet's admission looks at its own node's pods, and one
   * process simulates thousands of nodes (scanning every pod made each admission cost O(pods):
   * 150,000 pods on 5,000 nodes fell to 35 Running pods/s).
   */
  readonly #podsOnNode = new Map<string, Set<string>>();
  readonly #queue: WorkQueue;
  readonly #allocatable: ResourceList;
  /** Pods whose resize was Deferred: retried when a pod on their node goes away. */
  readonly #deferred = new Set<string>();
  #podInformer: SharedInformer | undefined;
  #nodeInformer: SharedInformer | undefined;
  #serviceInformer: SharedInformer | undefined;
  #servicesSynced = false;
  /**
   * The service variables by namespace and enableServiceLinks, made once per change of the
   * services' informer: every pod started in between shares one (read-only) map.
   */
  readonly #serviceEnvs = new Map<string, Map<string, string>>();
  /** HTTP to the pods' servers (created with the cluster network on first use). */
  #podHttp: PodHttp | undefined;
  #resolveRegistered: (ok: boolean) => void = () => undefined;
  /** Resolves true once every node is registered with its Lease (false if stopped first). */
  readonly registered: Promise<boolean>;

  constructor(o: SimulatedNodesOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#template = o.nodeTemplate ?? {};
    const capacity = { ...defaultCapacity, ...(this.#template.capacity ?? {}) };
    this.#allocatable = resourceList({ ...capacity, ...(this.#template.allocatable ?? {}) });
    const names = o.names ?? simulatedNodeNames(o.count ?? 1);
    for (const id of planNodes(names, o)) {
      this.#nodes.set(id.name, {
        id,
        uid: '',
        cidrs: [],
        poolSize: 0,
        used: new Set(),
        next: 0,
        leaseResourceVersion: undefined,
        registeredAt: 0,
        registered: false,
        gone: false,
        files: new Map([['/etc/hosts', nodeEtcHosts(id.name, id.addresses)]]),
        events:
          o.recordEvents === false
            ? undefined
            : new LegacyEventRecorder({
                client: o.client,
                component: 'kubelet',
                host: id.name,
                clock: this.#clock,
                onError: (err) => {
                  // A namespace being deleted refuses new events (403), as upstream's kubelet is
                  // told; that is not an error of the node.
                  if (err instanceof ApiError && (err.code === 403 || err.code === 404)) return;
                  o.onError?.(err);
                },
              }),
      });
    }
    const onError = o.onError;
    // Pod lifecycle steps are due after delays (creation, readiness, job duration) on the clock.
    this.#queue = new WorkQueue({
      ...(onError !== undefined ? { onError: (err: unknown) => onError(err) } : {}),
      clock: this.#clock,
    });
    this.registered = new Promise((resolve) => {
      this.#resolveRegistered = resolve;
    });
  }

  /**
   * What a container of a pod on these nodes printed, when its program is followed (the kubelet's
   * containerLogs); undefined otherwise.
   */
  output(
    pod: { readonly namespace: string; readonly name: string; readonly uid: string },
    container: string,
    previous: boolean,
  ): ContainerOutput | undefined {
    const st = this.#pods.get(`${pod.namespace}/${pod.name}`);
    if (st === undefined || st.uid !== pod.uid) return undefined;
    return st.sim?.output(container, previous, this.#clock.now());
  }

  /**
   * Runs a command in a running container of a pod on these nodes (the kubelet's exec); undefined
   * when the pod is not one of theirs.
   */
  async exec(
    pod: { readonly namespace: string; readonly name: string; readonly uid: string },
    container: string,
    argv: readonly string[],
    stdin: string,
    signal: AbortSignal,
  ): Promise<PodExecOutcome | undefined> {
    const key = `${pod.namespace}/${pod.name}`;
    const st = this.#pods.get(key);
    if (st === undefined || st.uid !== pod.uid) return undefined;
    const sim = st.sim;
    if (sim === undefined) return { kind: 'not-running' };
    // The command reads the API volumes as they are now (the kubelet keeps them in step); a pod
    // whose programs never read them has not had them read yet.
    const obj = this.#podInformer?.store.get(key);
    if (
      obj !== undefined &&
      volumeSourceKeys(obj).length + objsAt(objAt(obj, 'spec'), 'volumes').length > 0
    ) {
      if (st.tokens === undefined || st.tokens.size === 0) st.tokens = await this.#podTokens(obj, signal);
      const objects = await this.#readSources(obj, volumeSourceKeys(obj), signal);
      sim.refreshVolumes(
        obj,
        { objects, tokens: st.tokens, allocatable: this.#allocatable },
        this.#clock.now(),
      );
    }
    // The image's network tools reach other pods once the cluster network is known.
    const http = this.#http();
    const netReady = await http.ready(AbortSignal.any([signal, AbortSignal.timeout(5000)])).then(
      () => true,
      () => false,
    );
    const net = netReady
      ? http.fromPod({
          namespace: pod.namespace,
          ip: st.rt.podIPs[0] ?? '',
          sim,
          ...(objAt(obj, 'spec')?.['hostNetwork'] === true ? { hostNetworkOf: st.node } : {}),
        })
      : undefined;
    const out = sim.exec(container, argv, stdin, this.#clock.now(), net);
    // What it changed may change the pod's probes (a file a server serves is gone): look again.
    if (out.kind === 'ran' && out.events.length > 0) this.#queue.add(key);
    return out;
  }

  /**
   * An HTTP request to `port` of a pod on these nodes (the API server's pods/proxy and
   * services/proxy); undefined when the pod is not one of theirs.
   */
  async http(
    pod: { readonly namespace: string; readonly name: string; readonly uid: string },
    port: number,
    request: SimHttpRequest,
    signal: AbortSignal,
  ): Promise<PodHttpOutcome | undefined> {
    const st = this.#pods.get(`${pod.namespace}/${pod.name}`);
    if (st === undefined || st.uid !== pod.uid) return undefined;
    const ip = st.rt.podIPs[0] ?? '';
    const http = this.#http();
    await http.ready(signal);
    const out = http.request({ namespace: pod.namespace, ip, sim: st.sim }, port, request);
    const delay = out.kind === 'answer' ? (out.response.delayMs ?? 0) : 0;
    if (delay > 0) {
      // A server that sleeps before it answers, on the nodes' clock; "forever" is the longest
      // timer Node has (about 24.8 days), far past any request's deadline.
      await this.#clock.sleep(Math.min(delay, 2 ** 31 - 1), signal);
      signal.throwIfAborted();
    }
    return out;
  }

  /**
   * A TCP connection to `port` of the pod of these nodes with address `ip` (the API server's
   * webhook clients dial there); undefined when none of their pods has the address.
   */
  dial(ip: string, port: number): SimConnection | undefined {
    return this.#http().dial(ip, port);
  }

  #http(): PodHttp {
    if (this.#podHttp !== undefined) return this.#podHttp;
    const open = async (): Promise<ClusterNetwork> => {
      const services = this.#o.informers.informerFor(servicesPath);
      const slices = this.#o.informers.informerFor(endpointSlicesPath);
      slices.store.ensureIndex(sliceServiceIndex, (obj) => {
        const meta = metaOf(obj);
        const svc = stringMap(meta, 'labels')['kubernetes.io/service-name'];
        return svc === undefined ? [] : [`${strAt(meta, 'namespace') ?? ''}/${svc}`];
      });
      await Promise.all([services.synced, slices.synced]);
      return new ClusterNetwork({
        services: () => services.store.list(),
        slicesOf: (ns, name) => slices.store.byIndex(sliceServiceIndex, `${ns}/${name}`),
        pods: () => this.#podInformer?.store.list() ?? [],
        nodes: () => this.#nodeInformer?.store.list() ?? [],
        dnsServers: this.#o.clusterDNS ?? [],
      });
    };
    this.#podHttp = new PodHttp({
      podAt: (ip) => {
        for (const [key, st] of this.#pods) {
          if (st.rt.podIPs.includes(ip) && st.offset !== undefined) {
            return { namespace: key.slice(0, key.indexOf('/')), ip, sim: st.sim };
          }
        }
        return undefined;
      },
      open,
      now: () => this.#clock.now(),
    });
    return this.#podHttp;
  }

  /** Waits on the nodes' clock. */
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return this.#clock.sleep(ms, signal);
  }

  /** The names of the simulated nodes. */
  nodeNames(): string[] {
    return [...this.#nodes.keys()];
  }

  /** Registers the nodes, then heartbeats and runs their pods until `signal` aborts. */
  async run(outer: AbortSignal): Promise<void> {
    // One listener on the caller's signal; the workers and waits listen on ours.
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onAbort = (): void => stop.abort();
    if (outer.aborted) stop.abort();
    else outer.addEventListener('abort', onAbort, { once: true });
    const signal = stop.signal;
    const pods = this.#o.informers.informerFor(podsPath);
    this.#podInformer = pods;
    // The kubelet admits a pod against its own Node object (labels, taints, allocatable).
    this.#nodeInformer = this.#o.informers.informerFor(nodesPath);
    // Containers' environments carry service variables: the kubelet waits for services to sync.
    const services = this.#o.informers.informerFor(servicesPath);
    this.#serviceInformer = services;
    void services.synced.then((ok) => {
      this.#servicesSynced = ok;
    });
    const forgetServiceEnvs = (): void => this.#serviceEnvs.clear();
    const serviceRegistration = services.addEventHandler({
      onAdd: forgetServiceEnvs,
      onUpdate: forgetServiceEnvs,
      onDelete: forgetServiceEnvs,
    });
    const enqueue = (obj: JsonObject): void => {
      const nodeName = strAt(objAt(obj, 'spec'), 'nodeName');
      if (nodeName !== undefined && this.#nodes.has(nodeName)) this.#queue.add(this.#keyOf(obj));
    };
    const registration = pods.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_, obj) => enqueue(obj),
      onDelete: (obj) => {
        const key = this.#keyOf(obj);
        if (this.#pods.has(key)) this.#queue.add(key);
      },
    });
    const dnsIP = this.#o.clusterDNS?.[0];
    const dnsService =
      dnsIP === undefined
        ? Promise.resolve()
        : ensureDnsService({
            client: this.#o.client,
            clusterIP: dnsIP,
            clock: this.#clock,
            signal,
            ...(this.#o.onError !== undefined ? { onError: this.#o.onError } : {}),
          });
    try {
      const concurrency = this.#o.concurrency ?? 16;
      await forEachLimited([...this.#nodes.values()], concurrency, (n) => this.#registerLogged(n, signal));
      if (signal.aborted) return;
      this.#resolveRegistered(true);
      const workers = Array.from({ length: this.#o.workers ?? 16 }, () =>
        this.#queue.run((key) => this.#sync(key, signal), signal),
      );
      await Promise.all([...workers, this.#heartbeats(signal), dnsService]);
    } finally {
      outer.removeEventListener('abort', onAbort);
      this.#resolveRegistered(false);
      registration.remove();
      serviceRegistration.remove();
    }
  }

  #keyOf(obj: JsonObject): string {
    const meta = metaOf(obj);
    return `${strAt(meta, 'namespace') ?? ''}/${strAt(meta, 'name') ?? ''}`;
  }

  // --- nodes ------------------------------------------------------------------------------

  async #registerLogged(n: SimNode, signal: AbortSignal): Promise<void> {
    // Registration is retried until it works (an API server still starting, a webhook...).
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        await this.#register(n, signal);
        return;
      } catch (err) {
        if (signal.aborted) return;
        this.#o.onError?.(
          new Error(`registering node ${n.id.name}: ${err instanceof Error ? err.message : String(err)}`),
        );
        await this.#clock.sleep(Math.min(500 * 2 ** attempt, 7000), signal);
      }
    }
  }

  async #register(n: SimNode, signal: AbortSignal): Promise<void> {
    const now = this.#clock.now();
    const client = this.#o.client;
    const name = encodeURIComponent(n.id.name);
    let node: JsonObject;
    try {
      node = await client.request('POST', nodesPath, { body: nodeObject(n.id, this.#template, now), signal });
    } catch (err) {
      if (!isCode(err, 409)) throw err;
      // Already registered (a restart): report our status and keep the node's podCIDRs.
      node = await client.request('PATCH', `${nodesPath}/${name}/status`, {
        body: { status: nodeStatus(n.id, this.#template, now) },
        contentType: smp,
        signal,
      });
    }
    n.uid = strAt(metaOf(node), 'uid') ?? '';
    const cidrs = strsAt(objAt(node, 'spec'), 'podCIDRs');
    n.cidrs = (cidrs.length > 0 ? cidrs : n.id.podCIDRs).map(parseCidr);
    n.poolSize = Math.min(1 << 20, ...n.cidrs.map((c) => Math.max(0, cidrSize(c) - 3)));
    n.registeredAt = now;
    await this.#renewLease(n, signal);
    n.registered = true;
  }

  async #renewLease(n: SimNode, signal: AbortSignal): Promise<void> {
    const client = this.#o.client;
    const duration = this.#o.leaseDurationSeconds ?? 40;
    const path = `${leasesPath}/${encodeURIComponent(n.id.name)}`;
    const body = leaseObject(n.id.name, n.uid, this.#clock.now(), duration);
    if (n.leaseResourceVersion === undefined) {
      try {
        const created = await client.request('POST', leasesPath, { body, signal });
        n.leaseResourceVersion = strAt(metaOf(created), 'resourceVersion');
        return;
      } catch (err) {
        if (!isCode(err, 409)) throw err;
        const existing = await client.request('GET', path, { signal });
        n.leaseResourceVersion = strAt(metaOf(existing), 'resourceVersion');
      }
    }
    const meta = body['metadata'] as JsonObject;
    meta['resourceVersion'] = n.leaseResourceVersion ?? '';
    try {
      const updated = await client.request('PUT', path, { body, signal, accept: metadataOnly });
      n.leaseResourceVersion = strAt(metaOf(updated), 'resourceVersion');
    } catch (err) {
      // Someone else wrote it (409) or deleted it (404): start over at the next beat.
      if (isCode(err, 409, 404)) n.leaseResourceVersion = undefined;
      throw err;
    }
  }

  async #reportStatus(n: SimNode, signal: AbortSignal): Promise<void> {
    const now = this.#clock.now();
    try {
      await this.#o.client.request('PATCH', `${nodesPath}/${encodeURIComponent(n.id.name)}/status`, {
        body: { status: { conditions: nodeConditions(now, n.registeredAt) } },
        contentType: smp,
        accept: metadataOnly,
        signal,
      });
    } catch (err) {
      if (isCode(err, 404)) n.gone = true;
      else throw err;
    }
  }

  /** One ticker for every node: Lease renewals each beat, status reports less often. */
  async #heartbeats(signal: AbortSignal): Promise<void> {
    const interval = this.#o.heartbeatIntervalMs ?? 10_000;
    const reportEvery = this.#o.statusReportIntervalMs ?? 60_000;
    let lastReport = this.#clock.now();
    const concurrency = this.#o.concurrency ?? 16;
    while (!signal.aborted) {
      await this.#clock.sleep(interval, signal);
      if (signal.aborted) return;
      const live = [...this.#nodes.values()].filter((n) => n.registered && !n.gone);
      const report = this.#clock.now() - lastReport >= reportEvery;
      if (report) lastReport = this.#clock.now();
      await forEachLimited(live, concurrency, async (n) => {
        try {
          if (report) await this.#reportStatus(n, signal);
          if (!n.gone) await this.#renewLease(n, signal);
        } catch (err) {
          if (!signal.aborted) this.#o.onError?.(err);
        }
      });
    }
  }

  // --- pods -------------------------------------------------------------------------------

  #allocate(n: SimNode): number | undefined {
    if (n.used.size >= n.poolSize) return undefined;
    for (let i = 0; i < n.poolSize; i++) {
      const offset = (n.next + i) % n.poolSize;
      if (!n.used.has(offset)) {
        n.used.add(offset);
        n.next = (offset + 1) % n.poolSize;
        return offset;
      }
    }
    return undefined;
  }

  #release(st: PodState): void {
    this.#retryDeferred(st.node);
    if (st.offset === undefined) return;
    this.#nodes.get(st.node)?.used.delete(st.offset);
    st.offset = undefined;
  }

  #forget(key: string): void {
    const st = this.#pods.get(key);
    if (st === undefined) return;
    this.#pods.delete(key);
    const onNode = this.#podsOnNode.get(st.node);
    onNode?.delete(key);
    if (onNode?.size === 0) this.#podsOnNode.delete(st.node);
    this.#deferred.delete(key);
    this.#release(st);
  }

  /** Room freed on `node`: its deferred resizes are tried again (upstream retries each sync). */
  #retryDeferred(node: string): void {
    for (const key of this.#deferred) if (this.#pods.get(key)?.node === node) this.#queue.add(key);
  }

  /** The kubelet's admission of a new pod against what its node already admitted. */
  #admit(key: string, obj: JsonObject, nodeName: string): Rejection | undefined {
    const nodeObj = this.#nodeInformer?.store.get(nodeName);
    if (nodeObj === undefined) return undefined;
    let admittedPods = 0;
    const usedPorts: string[] = [];
    for (const k of this.#podsOnNode.get(nodeName) ?? []) {
      const other = this.#pods.get(k);
      if (k === key || other === undefined || other.stage === 'terminated' || other.stage === 'deleting')
        continue;
      admittedPods++;
      const p = this.#podInformer?.store.get(k);
      if (p !== undefined) usedPorts.push(...hostPortsOf(objAt(p, 'spec')));
    }
    return kubeletAdmit({
      pod: parsePod(obj),
      node: nodeView(nodeObj),
      admittedPods,
      usedPorts,
      used: this.#othersRequested(nodeName, key),
    });
  }

  /** What the node's other admitted pods hold (their allocated requests). */
  #othersRequested(node: string, except: string): ResourceList {
    const sum: ResourceList = new Map();
    for (const key of this.#podsOnNode.get(node) ?? []) {
      const st = this.#pods.get(key);
      if (key === except || st === undefined || st.stage === 'terminated' || st.stage === 'deleting')
        continue;
      const pod = this.#podInformer?.store.get(key);
      if (pod === undefined) continue;
      for (const [r, v] of allocatedPodRequests(pod, st.containers)) sum.set(r, (sum.get(r) ?? 0) + v);
    }
    return sum;
  }

  /**
   * handlePodResourcesResize for a running pod: a resize in progress is applied (containers whose
   * policy says RestartContainer restart) and cleared; a new one is admitted (InProgress),
   * Deferred or Infeasible. Resolves the delay before the next step, or 'none' when nothing was to
   * be done.
   */
  async #resize(
    key: string,
    obj: JsonObject,
    pod: JsonObject,
    st: PodState,
    now: number,
    signal: AbortSignal,
  ): Promise<number | undefined | 'none'> {
    const write = async (): Promise<boolean> => {
      const status = this.#simStatus(pod, st, now);
      if (!(await this.#writeStatus(pod, st, status, signal))) return false;
      st.lastSimStatus = statusDigest(status);
      return true;
    };
    if (st.resize === 'InProgress') {
      actuate(obj, st.containers, now);
      if (resizeDone(obj, st.containers)) st.resize = undefined;
      if (!(await write())) return undefined;
      return resizeRequested(obj, st.containers) ? 1 : 'none';
    }
    if (!resizeRequested(obj, st.containers)) {
      this.#deferred.delete(key);
      // A resize reverted to what is allocated and applied (say after Infeasible): the spec matches
      // the containers again, so determinePodResizeStatus clears the state the API or we reported.
      const reported = strAt(objAt(pod, 'status'), 'resize');
      if ((st.resize !== undefined || reported !== undefined) && resizeDone(obj, st.containers)) {
        st.resize = undefined;
        if (!(await write())) return undefined;
      }
      return 'none';
    }
    const verdict = admitResize(obj, this.#allocatable, this.#othersRequested(st.node, key));
    if (verdict === 'Deferred') this.#deferred.add(key);
    else this.#deferred.delete(key);
    if (verdict === 'InProgress') allocate(obj, st.containers);
    const reported = strAt(objAt(pod, 'status'), 'resize');
    if (verdict === 'InProgress' || st.resize !== verdict || reported !== verdict) {
      st.resize = verdict;
      if (!(await write())) return undefined;
    }
    return verdict === 'InProgress' ? 1 : undefined;
  }

  /** Local state for a pod first seen: new, or adopted from the status a previous run wrote. */
  #start(pod: JsonObject, n: SimNode, now: number): PodState | undefined {
    const uid = strAt(metaOf(pod), 'uid') ?? '';
    const spec = objAt(pod, 'spec');
    const status = objAt(pod, 'status');
    const phase = strAt(status, 'phase');
    const hostIP = n.id.addresses[0] ?? '';
    const existingIPs = objsAt(status, 'podIPs').map((p) => strAt(p, 'ip') ?? '');
    const started = strAt(status, 'hostIP') === hostIP && (phase === 'Running' || existingIPs.length > 0);
    let offset: number | undefined;
    let podIPs: string[];
    if (spec?.['hostNetwork'] === true) {
      podIPs = [...n.id.addresses];
    } else if (started && existingIPs.length > 0) {
      podIPs = existingIPs;
      // Mark the adopted address as used when it is one of ours.
      const v4 = n.cidrs[0];
      for (let i = 0; v4 !== undefined && i < n.poolSize; i++) {
        if (addressIn(v4, i + 2) === existingIPs[0]) {
          offset = i;
          n.used.add(i);
          break;
        }
      }
    } else {
      offset = this.#allocate(n);
      if (offset === undefined) {
        this.#o.onError?.(new Error(`node ${n.id.name}: no pod IP left in ${n.id.podCIDRs.join(',')}`));
        return undefined;
      }
      podIPs = n.cidrs.map((c) => addressIn(c, offset! + 2));
    }
    const startTime = timeMs(strAt(status, 'startTime'), now);
    let stage: Stage = 'new';
    if (phase === 'Succeeded' || phase === 'Failed') stage = 'terminated';
    else if (phase === 'Running') stage = 'running';
    else if (started || strAt(status, 'hostIP') === hostIP) stage = 'pending';
    const adopted = stage === 'running';
    return {
      uid,
      node: n.id.name,
      rt: { hostIP, podIPs, startTime },
      offset,
      stage,
      stageAt: now,
      adopted,
      // A pod already running keeps running from its start, its programs not followed.
      sim: adopted
        ? new PodSim({
            pod,
            nodeFiles: n.files,
            startAt: startTime,
            defaultRunMs: this.#jobMs(),
            adopted: true,
          })
        : undefined,
      lastStatus: undefined,
      writtenVersion: undefined,
      lastSimStatus: undefined,
      containers: initialRuntimes(pod, startTime),
      resize: undefined,
    };
  }

  /**
   * What the pod's containers' environment draws on: service variables, node allocatable, and the
   * ConfigMaps, Secrets and tokens read for it. Built as one literal of a fixed shape (a pod's
   * context built with spreads got a hidden class of its own, 264 bytes a pod), with shared empty
   * maps where nothing was read.
   */
  #envContext(
    pod: JsonObject,
    rt: PodRuntime,
    sources: EnvContext['sources'] = noSources,
    tokens: EnvContext['tokens'] = noTokens,
  ): EnvContext {
    const spec = objAt(pod, 'spec');
    const namespace = strAt(metaOf(pod), 'namespace') ?? '';
    const links = spec?.['enableServiceLinks'] !== false;
    const memo = `${links ? 'links' : 'nolinks'}/${namespace}`;
    let services = this.#serviceEnvs.get(memo);
    if (services === undefined) {
      services = serviceEnv(this.#serviceInformer?.store.list() ?? [], namespace, links);
      this.#serviceEnvs.set(memo, services);
    }
    const clusterDNS = this.#o.clusterDNS;
    return clusterDNS !== undefined
      ? {
          services,
          allocatable: this.#allocatable,
          hostIP: rt.hostIP,
          podIPs: rt.podIPs,
          sources,
          tokens,
          clusterDNS,
        }
      : { services, allocatable: this.#allocatable, hostIP: rt.hostIP, podIPs: rt.podIPs, sources, tokens };
  }

  /**
   * The ConfigMaps and Secrets named by `keys` (`configmap/<name>`, `secret/<name>`), as the
   * kubelet reads them: Secret values decoded, a ConfigMap's binaryData under `binary/<name>`,
   * null for what is not found.
   */
  async #readSources(
    pod: JsonObject,
    keys: Iterable<string>,
    signal: AbortSignal,
  ): Promise<ReadonlyMap<string, Readonly<Record<string, string>> | null>> {
    const ns = encodeURIComponent(strAt(metaOf(pod), 'namespace') ?? '');
    const wanted = new Set(keys);
    if (wanted.size === 0) return noSources;
    const out = new Map<string, Readonly<Record<string, string>> | null>();
    for (const key of wanted) {
      const [kind, name] = key.split('/') as [string, string];
      try {
        const obj = await this.#o.client.request(
          'GET',
          `/api/v1/namespaces/${ns}/${kind === 'secret' ? 'secrets' : 'configmaps'}/${encodeURIComponent(name)}`,
          { signal },
        );
        const decode = (field: string, base64: boolean): Record<string, string> => {
          const data: Record<string, string> = {};
          for (const [k, v] of Object.entries(objAt(obj, field) ?? {}))
            if (typeof v === 'string') data[k] = base64 ? decodeBytes(Buffer.from(v, 'base64')) : v;
          return data;
        };
        out.set(key, decode('data', kind === 'secret'));
        if (kind === 'configmap') out.set(`binary/${name}`, decode('binaryData', true));
      } catch (err) {
        if (!isCode(err, 404)) throw err;
        out.set(key, null);
        if (kind === 'configmap') out.set(`binary/${name}`, null);
      }
    }
    return out;
  }

  /**
   * Tokens for the pod's projected serviceAccountToken sources, requested as the kubelet does
   * (TokenRequest bound to the pod). One that cannot be had is left out: its volume is unknowable.
   */
  async #podTokens(pod: JsonObject, signal: AbortSignal): Promise<Map<string, string>> {
    const meta = metaOf(pod);
    const ns = encodeURIComponent(strAt(meta, 'namespace') ?? '');
    const sa = encodeURIComponent(strAt(objAt(pod, 'spec'), 'serviceAccountName') ?? 'default');
    const out = new Map<string, string>();
    for (const t of tokenRequests(pod)) {
      try {
        const res = await this.#o.client.request(
          'POST',
          `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`,
          {
            body: {
              kind: 'TokenRequest',
              apiVersion: 'authentication.k8s.io/v1',
              spec: {
                audiences: t.audience === undefined ? [] : [t.audience],
                expirationSeconds: t.expirationSeconds,
                boundObjectRef: {
                  kind: 'Pod',
                  apiVersion: 'v1',
                  name: strAt(meta, 'name') ?? '',
                  uid: strAt(meta, 'uid') ?? '',
                },
              },
            },
            signal,
          },
        );
        const token = strAt(objAt(res, 'status'), 'token');
        if (token !== undefined) out.set(t.key, token);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
    }
    return out;
  }

  /**
   * Keeps a running pod's API volumes in step with the API when a container's output follows
   * them: re-read every `volumeSyncMs`, and at once when the pod's labels or annotations change
   * (downward API files). Returns the delay to the next re-read.
   */
  async #syncVolumes(
    obj: JsonObject,
    st: PodState,
    now: number,
    signal: AbortSignal,
  ): Promise<number | undefined> {
    const sim = st.sim;
    if (sim === undefined || !sim.followsVolumes()) return undefined;
    const seen = labelsAndAnnotations(obj);
    const due = (st.volumesReadAt ?? 0) + volumeSyncMs;
    if (now < due && seen === st.volumesMeta) return due - now;
    const objects = await this.#readSources(obj, volumeSourceKeys(obj), signal);
    sim.refreshVolumes(obj, { objects, tokens: st.tokens ?? new Map(), allocatable: this.#allocatable }, now);
    st.volumesReadAt = now;
    st.volumesMeta = seen;
    return volumeSyncMs;
  }

  #jobMs(): number {
    return this.#o.jobPodDurationMs ?? 5000;
  }

  /** The status the pod's simulation gives now, over the conditions last written. */
  #simStatus(pod: JsonObject, st: PodState, now: number): JsonObject {
    return st.sim === undefined ? terminatedStatus(pod, st.rt, 0, now) : st.sim.status(st.rt, now, pod);
  }

  async #writeStatus(
    pod: JsonObject,
    st: PodState,
    status: JsonObject,
    signal: AbortSignal,
  ): Promise<boolean> {
    const meta = metaOf(pod);
    const path = `/api/v1/namespaces/${encodeURIComponent(strAt(meta, 'namespace') ?? '')}/pods/${encodeURIComponent(strAt(meta, 'name') ?? '')}/status`;
    // null clears a resize state reported before (strategic merge patch).
    status = { ...withRuntimes(status, pod, st.containers), resize: st.resize ?? null };
    let written: JsonObject;
    try {
      written = await this.#o.client.request('PATCH', path, {
        body: { status: clearingPatch(status) },
        contentType: smp,
        accept: metadataOnly,
        signal,
      });
    } catch (err) {
      if (isCode(err, 404)) return false;
      throw err;
    }
    st.lastStatus = status;
    st.writtenVersion = strAt(metaOf(written), 'resourceVersion');
    return true;
  }

  /** Writes (without waiting) the container events the pod's simulation recorded. */
  #recordEvents(pod: JsonObject, n: SimNode, st: PodState): void {
    const events = st.sim?.takeEvents() ?? [];
    if (n.events === undefined || events.length === 0) return;
    const meta = metaOf(pod);
    const ref = {
      kind: 'Pod',
      apiVersion: 'v1',
      namespace: strAt(meta, 'namespace') ?? '',
      name: strAt(meta, 'name') ?? '',
      uid: strAt(meta, 'uid') ?? '',
      resourceVersion: strAt(meta, 'resourceVersion') ?? '',
    };
    for (const e of events) n.events.event({ ...ref, fieldPath: e.fieldPath }, e.type, e.reason, e.message);
  }

  /** One step of a pod's lifecycle; resolves the delay before the next step, if one is due. */
  async #sync(key: string, signal: AbortSignal): Promise<number | undefined> {
    const obj = this.#podInformer?.store.get(key);
    if (obj === undefined) {
      this.#forget(key);
      return undefined;
    }
    const meta = metaOf(obj);
    const nodeName = strAt(objAt(obj, 'spec'), 'nodeName') ?? '';
    const n = this.#nodes.get(nodeName);
    if (n === undefined || n.gone) return undefined;
    // Registration still under way (or retrying): come back shortly.
    if (!n.registered) return 200;
    const uid = strAt(meta, 'uid') ?? '';
    let st = this.#pods.get(key);
    if (st !== undefined && st.uid !== uid) {
      this.#forget(key);
      st = undefined;
    }
    const now = this.#clock.now();
    if (st === undefined) {
      st = this.#start(obj, n, now);
      if (st === undefined) return 10_000;
      this.#pods.set(key, st);
      let onNode = this.#podsOnNode.get(st.node);
      if (onNode === undefined) {
        onNode = new Set();
        this.#podsOnNode.set(st.node, onNode);
      }
      onNode.add(key);
      if (st.stage === 'new' && meta['deletionTimestamp'] == null) {
        const rejection = this.#admit(key, obj, st.node);
        if (rejection !== undefined) {
          // rejectPod: the pod fails where it stands; its containers never start.
          st.stage = 'terminated';
          st.stageAt = now;
          this.#release(st);
          await this.#writeStatus(obj, st, { ...objAt(obj, 'status'), ...rejectedStatus(rejection) }, signal);
          return undefined;
        }
      }
    }
    // The informer's copy may lag our last write: build on what we wrote, until the informer
    // shows the pod as that write left it (then its status is the server's, ours merged in).
    if (st.writtenVersion !== undefined && strAt(meta, 'resourceVersion') === st.writtenVersion) {
      st.lastStatus = undefined;
      st.writtenVersion = undefined;
    }
    const pod: JsonObject = st.lastStatus === undefined ? obj : { ...obj, status: st.lastStatus };

    if (meta['deletionTimestamp'] !== undefined && meta['deletionTimestamp'] !== null) {
      if (st.stage === 'deleting') return undefined;
      if (st.stage !== 'terminated') {
        // The containers are stopped (exit code 0, as the default behaviour has it).
        st.sim?.stop(now);
        this.#recordEvents(obj, n, st);
        if (!(await this.#writeStatus(pod, st, this.#simStatus(pod, st, now), signal))) return undefined;
      }
      st.stage = 'deleting';
      this.#release(st);
      const path = `/api/v1/namespaces/${encodeURIComponent(strAt(meta, 'namespace') ?? '')}/pods/${encodeURIComponent(strAt(meta, 'name') ?? '')}`;
      try {
        await this.#o.client.request('DELETE', path, {
          body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid } },
          signal,
        });
      } catch (err) {
        if (!isCode(err, 404, 409)) {
          st.stage = 'terminated';
          throw err;
        }
      }
      return undefined;
    }

    const creating = this.#o.containerCreatingMs ?? 0;
    if (st.stage === 'new') {
      if (creating > 0) {
        if (!(await this.#writeStatus(pod, st, pendingStatus(pod, st.rt, now), signal))) return undefined;
        st.stage = 'pending';
        st.stageAt = now;
        return creating;
      }
      // Without a creation delay the pod goes straight to Running: one status write, not two.
      st.stage = 'pending';
      st.stageAt = now;
    }
    if (st.stage === 'terminated' || st.stage === 'deleting') return undefined;
    if (st.stage === 'pending' && now - st.stageAt < creating) return creating - (now - st.stageAt);
    // The containers start: their lives follow the pod's spec from here (containers/pod-sim.ts).
    if (st.sim === undefined && !this.#servicesSynced) return 200;
    if (st.sim === undefined) {
      // The kubelet reads the ConfigMaps and Secrets the environment names before it starts the
      // containers, and sets up their volumes. The volumes' content is read only when a program
      // the node follows reads them: an unknown program's volumes cost no requests.
      const context = this.#envContext(obj, st.rt);
      const volumes = readsApiVolumes(obj, context);
      const spec = objAt(obj, 'spec');
      const keys = [...objsAt(spec, 'initContainers'), ...objsAt(spec, 'containers')].flatMap(envSourceKeys);
      if (volumes) keys.push(...volumeSourceKeys(obj));
      const sources = await this.#readSources(obj, keys, signal);
      const tokens = volumes ? await this.#podTokens(obj, signal) : noTokens;
      st.tokens = tokens;
      st.volumesReadAt = now;
      st.volumesMeta = labelsAndAnnotations(obj);
      // Lifecycle hooks and the images' network tools reach other pods: the network is opened
      // for a pod that has them.
      const reaches = [...objsAt(spec, 'initContainers'), ...objsAt(spec, 'containers')].some(
        (c) => objAt(c, 'lifecycle') !== undefined || mentionsNetworkTool(c),
      );
      const http = this.#http();
      if (reaches)
        await http.ready(AbortSignal.any([signal, AbortSignal.timeout(5000)])).catch(() => undefined);
      const podNet = { namespace: strAt(metaOf(obj), 'namespace') ?? '', ip: st.rt.podIPs[0] ?? '' };
      const hostNetworkOf = spec?.['hostNetwork'] === true ? { hostNetworkOf: st.node } : {};
      st.sim = new PodSim({
        pod: obj,
        nodeFiles: n.files,
        startAt: now,
        defaultRunMs: this.#jobMs(),
        envContext: this.#envContext(obj, st.rt, sources, tokens),
        net: () => (http.isReady() ? http.fromPod({ ...podNet, sim: st.sim, ...hostNetworkOf }) : undefined),
      });
    }
    st.stage = 'running';
    st.sim.observe(obj);
    const deadline = numAt(objAt(obj, 'spec'), 'activeDeadlineSeconds');
    st.sim.setActiveDeadline(deadline === undefined ? undefined : st.rt.startTime + deadline * 1000);
    st.sim.retryConfigErrors(obj, now);
    st.sim.startEphemeral(obj, now);
    st.sim.advance(now);
    this.#recordEvents(obj, n, st);
    // In-place resize (AM-01) of a running pod: its own writes, and maybe a sooner wake-up.
    const resizeDelay =
      st.sim.phase() === 'Running' ? await this.#resize(key, obj, pod, st, now, signal) : 'none';
    const status = this.#simStatus(pod, st, now);
    const digest = statusDigest(status);
    if (digest !== st.lastSimStatus) {
      if (!(await this.#writeStatus(pod, st, status, signal))) return undefined;
      st.lastSimStatus = digest;
    }
    if (st.sim.terminal()) {
      st.stage = 'terminated';
      st.stageAt = now;
      this.#release(st);
      return undefined;
    }
    const next = st.sim.nextEventAt();
    const delay = next === undefined ? undefined : Math.max(1, next - now);
    const volumeDelay =
      st.sim.phase() === 'Running' ? await this.#syncVolumes(obj, st, now, signal) : undefined;
    return [delay, resizeDelay === 'none' ? undefined : resizeDelay, volumeDelay].reduce<number | undefined>(
      (a, b) => (b === undefined ? a : a === undefined ? b : Math.min(a, b)),
      undefined,
    );
  }
}
