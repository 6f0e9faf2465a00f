/**
 * The streaming and proxy subresources (upstream pkg/registry/core/pod/rest log.go and
 * subresources.go, pod/strategy.go LogLocation/ExecLocation/AttachLocation/PortForwardLocation/
 * ResourceLocation, node/rest/proxy.go, service/proxy.go; v1.27), answered as kube-apiserver
 * answers them when no kubelet can be reached. Every check before the connection is upstream's,
 * in its order (options, the object, the container, the node and its address); then the
 * connection is really dialled, with a short timeout, so the error text names what happened.
 * nanokube has no kubelet client credentials: a backend that does accept the connection is not
 * spoken to, and the answer says so.
 */
import { connect } from 'node:net';
import { apiErrors, StatusError } from '../../../machinery/errors.js';
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import type { GenericStore } from '../../generic/store.js';
import {
  rfc3339Nano,
  simulatedLineCount,
  simulatedLogLine,
  simulatedLogs,
} from '../../../apis/core/v1/simulated-logs.js';
import type { SimulatedLogOptions } from '../../../apis/core/v1/simulated-logs.js';
import type { StreamSession } from '../../../machinery/stream-session.js';
import { attachSession, execSession } from './pod-sessions.js';
import { joinHostPort } from '../../../util/host-port.js';
import type { PodHttpOutcome, SimConnection, SimHttpRequest } from '../../../machinery/http-exchange.js';
import { proxyHttp, rootRedirect } from './proxy-transport.js';

/** A container instance's output, at absolute times (ms). */
export interface ContainerOutput {
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly chunks: readonly { readonly at: number; readonly text: string }[];
}

/** What a command run in a simulated container came to (see nodes/containers/exec.ts). */
export type ContainerExecResult =
  | {
      readonly kind: 'ran';
      /** The exit status; undefined for a command that does not end. */
      readonly code: number | undefined;
      /** When it ends, ms after its start. */
      readonly elapsedMs: number;
      /** What it printed on stdout (1) and stderr (2), ms after its start. */
      readonly output: readonly { readonly at: number; readonly fd: 1 | 2; readonly text: string }[];
    }
  | { readonly kind: 'unknowable'; readonly reason: string }
  | { readonly kind: 'not-running' };

/**
 * What simulated nodes running in this process know of their containers: for a container whose
 * program they follow, its log is that output instead of generated lines; commands are run in
 * running containers as the simulated shell knows them (pods/exec).
 */
export interface ContainerSource {
  output(
    pod: { readonly namespace: string; readonly name: string; readonly uid: string },
    container: string,
    previous: boolean,
  ): ContainerOutput | undefined;
  /** Undefined when the pod is not one of these nodes' pods. */
  exec(
    pod: { readonly namespace: string; readonly name: string; readonly uid: string },
    container: string,
    argv: readonly string[],
    stdin: string,
    signal: AbortSignal,
  ): Promise<ContainerExecResult | undefined>;
  /** Waits `ms` on the nodes' clock (a command's output comes as its program would print it). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** An HTTP request to a port of the pod; undefined when the pod is not one of these nodes'. */
  http(
    pod: { readonly namespace: string; readonly name: string; readonly uid: string },
    port: number,
    request: SimHttpRequest,
    signal: AbortSignal,
  ): Promise<PodHttpOutcome | undefined>;
  /** A TCP connection to a pod's address and port (webhooks); undefined when no pod here has the address. */
  dial(ip: string, port: number): SimConnection | undefined;
}

/** Where the source is found once the nodes run (they start after the endpoints are built). */
export interface ContainerRelay {
  source?: ContainerSource;
}

/**
 * What simulated nodes of this process serve on their ports over HTTP (the in-process proxies'
 * health and metrics addresses and health check node ports): undefined where nothing listens.
 */
export interface NodePortsSource {
  answer(
    node: string,
    port: number,
    path: string,
  ): Promise<
    | { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
    | undefined
  >;
}

/** Where the node ports are found once the nodes' proxies run. */
export interface NodePortsRelay {
  source?: NodePortsSource;
}

/** The output's lines as the kubelet's log has them: each with the time it was written. */
function outputLines(out: ContainerOutput): { at: number; text: string }[] {
  const lines: { at: number; text: string }[] = [];
  let partial = '';
  for (const chunk of out.chunks) {
    const parts = (partial + chunk.text).split('\n');
    partial = parts.pop() ?? '';
    for (const p of parts) lines.push({ at: chunk.at, text: `${p}\n` });
    if (partial !== '' && chunk === out.chunks.at(-1)) lines.push({ at: chunk.at, text: partial });
  }
  return lines;
}

/** The log of an instance whose output is known, windowed as the kubelet windows it. */
async function* knownLogStream(
  o: {
    readonly source: ContainerSource;
    readonly pod: { readonly namespace: string; readonly name: string; readonly uid: string };
    readonly container: string;
    readonly previous: boolean;
    readonly timestamps: boolean;
    readonly sinceMs?: number;
    readonly tailLines?: number;
    readonly limitBytes?: number;
    readonly follow: boolean;
    /** The cluster's time (ms): the output's times are on it. */
    readonly now: () => number;
  },
  first: ContainerOutput,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const format = (l: { at: number; text: string }): string =>
    o.timestamps ? `${rfc3339Nano(l.at)} ${l.text}` : l.text;
  let sent = 0;
  const emit = (text: string): string | undefined => {
    if (o.limitBytes === undefined) return text;
    if (sent >= o.limitBytes) return undefined;
    const cut = Buffer.from(text)
      .subarray(0, o.limitBytes - sent)
      .toString();
    sent += Buffer.byteLength(cut);
    return cut;
  };
  let lines = outputLines(first).filter((l) => l.at <= o.now());
  if (o.sinceMs !== undefined) lines = lines.filter((l) => l.at >= o.sinceMs!);
  if (o.tailLines !== undefined) lines = lines.slice(Math.max(0, lines.length - o.tailLines));
  const text = emit(lines.map(format).join(''));
  if (text !== undefined && text !== '') yield text;
  if (!o.follow) return;
  let shown = outputLines(first).filter((l) => l.at <= o.now()).length;
  while (!signal.aborted) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, 1000);
      function done(): void {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    const now = o.source.output(o.pod, o.container, o.previous);
    if (now === undefined || now.startedAt !== first.startedAt) return;
    const all = outputLines(now).filter((l) => l.at <= o.now());
    const fresh = all.slice(shown);
    shown = all.length;
    if (fresh.length > 0) {
      const more = emit(fresh.map(format).join(''));
      if (more === undefined) return;
      if (more !== '') yield more;
    }
    if (now.finishedAt !== undefined && now.finishedAt <= o.now()) return;
  }
}

/** The annotation simulated nodes carry (src/nodes/node-object.ts). */
const simulatedNodeAnnotation = 'nanokube.dev/simulated-node';

async function isSimulated(nodes: GenericStore, nodeName: string): Promise<boolean> {
  const node = await nodes.storage.get(nodes.key('', nodeName));
  return node?.metadata.annotations?.[simulatedNodeAnnotation] === 'true';
}

/** A boolean query parameter as Go's conversion reads it (Convert_Slice_string_To_bool): "0" and "false" are false. */
export function queryFlag(q: URLSearchParams, key: string): boolean {
  const v = q.get(key);
  return v !== null && !['false', '0'].includes(v.toLowerCase());
}

function intParam(q: URLSearchParams, key: string): number | undefined {
  const v = q.get(key);
  return v === null || v === '' ? undefined : Number.parseInt(v, 10);
}

/** The container instance whose log is read: when it started and, if it has exited, ended (ms). */
interface LogInstance {
  readonly startedAt: number;
  readonly finishedAt?: number;
}

/**
 * Upstream kubelet validateContainerLogStatus (v1.27, kubelet_pods.go): the instance whose log is
 * asked for (an exited one writes no more lines), or the kubelet's error (400).
 */
function logInstance(pod: KubeObject, container: string, previous: boolean): LogInstance {
  const podName = pod.metadata.name ?? '';
  const status = o(pod['status']);
  const cs = ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']
    .flatMap((k) => list(status[k]))
    .find((c) => c['name'] === container);
  const q = JSON.stringify;
  if (cs === undefined)
    throw apiErrors.badRequest(`container ${q(container)} in pod ${q(podName)} is not available`);
  const state = o(cs['state']);
  const last = o(o(cs['lastState'])['terminated']);
  const time = (v: JsonValue | undefined): number => Date.parse(s(v));
  const exited = (t: JsonObject): LogInstance => {
    const finishedAt = time(t['finishedAt']);
    return {
      startedAt: time(t['startedAt']),
      ...(Number.isNaN(finishedAt) ? {} : { finishedAt }),
    };
  };
  const lastKnown = Object.keys(last).length > 0;
  if (previous) {
    if (!lastKnown || s(last['containerID']) === '')
      throw apiErrors.badRequest(
        `previous terminated container ${q(container)} in pod ${q(podName)} not found`,
      );
    return exited(last);
  }
  if (isJsonObject(state['running'])) return { startedAt: time(o(state['running'])['startedAt']) };
  const terminated = o(state['terminated']);
  if (Object.keys(terminated).length > 0) {
    if (s(terminated['containerID']) !== '') return exited(terminated);
    if (lastKnown && s(last['containerID']) !== '') return exited(last);
    throw apiErrors.badRequest(`container ${q(container)} in pod ${q(podName)} is terminated`);
  }
  if (lastKnown) {
    if (s(last['containerID']) === '')
      throw apiErrors.badRequest(`container ${q(container)} in pod ${q(podName)} is terminated`);
    return exited(last);
  }
  if (isJsonObject(state['waiting'])) {
    const reason = s(o(state['waiting'])['reason']);
    const why =
      reason === 'ErrImagePull'
        ? "image can't be pulled"
        : reason === 'ImagePullBackOff'
          ? 'trying and failing to pull image'
          : reason;
    throw apiErrors.badRequest(`container ${q(container)} in pod ${q(podName)} is waiting to start: ${why}`);
  }
  throw apiErrors.badRequest(
    `container ${q(container)} in pod ${q(podName)} is waiting to start - no logs yet`,
  );
}

/**
 * The simulated log of a pod on a simulated node; with follow, a line a second until the container
 * exits (or restarts) or the pod goes, as the kubelet ends a follow when the container stops.
 */
async function* simulatedLogStream(
  pods: GenericStore,
  pod: KubeObject,
  base: SimulatedLogOptions,
  follow: boolean,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const first = simulatedLogs(base);
  let sent = Buffer.byteLength(first);
  if (first !== '') yield first;
  if (!follow) return;
  let n = simulatedLineCount(base.startedAt, base.now);
  while (!signal.aborted) {
    const wait = base.startedAt + (n + 1) * 1000 - Date.now();
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, Math.max(0, wait));
      function done(): void {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    if (signal.aborted) return;
    const current = await pods.storage.get(pods.key(pod.metadata.namespace ?? '', pod.metadata.name ?? ''));
    if (current === undefined || current.metadata.uid !== pod.metadata.uid) return;
    let inst: LogInstance;
    try {
      inst = logInstance(current, base.container, false);
    } catch {
      return;
    }
    if (!Number.isNaN(inst.startedAt) && inst.startedAt !== base.startedAt) return;
    if (inst.finishedAt !== undefined && base.startedAt + (n + 1) * 1000 > inst.finishedAt) return;
    n += 1;
    let line = simulatedLogLine(base, n);
    if (base.limitBytes !== undefined) {
      if (sent >= base.limitBytes) return;
      line = Buffer.from(line)
        .subarray(0, base.limitBytes - sent)
        .toString();
    }
    sent += Buffer.byteLength(line);
    yield line;
  }
}

/** What a connect answers when it does not fail: pods/log of an unscheduled pod (204, empty). */
export interface ConnectAnswer {
  readonly status: number;
  readonly contentType?: string;
  /** Further headers of the answer (a proxied server's). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: AsyncIterable<string> | Iterable<string>;
  /** exec and attach into a simulated container: the session to serve (status 101). */
  readonly session?: StreamSession;
}

export interface ConnectRequest {
  readonly namespace: string;
  /** The object named in the path; proxies accept `name`, `name:port` and `scheme:name:port`. */
  readonly name: string;
  readonly query: URLSearchParams;
  /** The request asks for a protocol upgrade (`Connection: Upgrade`: SPDY, WebSocket). */
  readonly upgrade: boolean;
  /** A proxy's path after `proxy` (`/healthz` of `nodes/n:10256/proxy/healthz`; '' when none). */
  readonly path: string;
  readonly signal: AbortSignal;
  /** The HTTP request itself, for the proxies to forward (absent: a GET without headers or body). */
  readonly http?: {
    readonly method: string;
    /** The path the client asked for (`/api/v1/namespaces/ns/pods/web/proxy/x`). */
    readonly requestPath: string;
    readonly rawQuery: string;
    /** Header values by lower-case name. */
    readonly headers: Readonly<Record<string, string>>;
    readonly body: () => Promise<string>;
  };
}

/** Upstream's default --kubelet-preferred-address-types. */
const preferredAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const defaultKubeletPort = 10250;
const dialTimeoutMs = 3000;

const podsGR = { group: '', resource: 'pods' };
const nodesGR = { group: '', resource: 'nodes' };
const servicesGR = { group: '', resource: 'services' };
const endpointsGR = { group: '', resource: 'endpoints' };

function o(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

function list(v: JsonValue | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** A number field as text ('' when absent). */
function num(v: JsonValue | undefined): string {
  return typeof v === 'number' ? String(v) : '';
}

function s(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

async function getOrNotFound(
  store: GenericStore,
  gr: { group: string; resource: string },
  namespace: string,
  name: string,
): Promise<KubeObject> {
  const obj = await store.storage.get(store.key(namespace, name));
  if (obj === undefined) throw apiErrors.notFound(gr, name);
  return obj;
}

/** Upstream utilnet.SplitSchemeNamePort. */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = [parts[0]!, parts[1]!];
  else if (parts.length === 3) [scheme, name, port] = [parts[0]!, parts[1]!, parts[2]!];
  else return undefined;
  return name !== '' && ['', 'http', 'https'].includes(scheme) ? { scheme, name, port } : undefined;
}

/** Go's IP.IsGlobalUnicast for a textual address (undefined: not an IP). */
function isGlobalUnicast(ip: string): boolean | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4 !== null) {
    const b = v4.slice(1).map(Number);
    if (b.some((x) => x > 255)) return undefined;
    const [a, c] = [b[0]!, b[1]!];
    if (b.every((x) => x === 0) || b.every((x) => x === 255)) return false;
    return a !== 127 && !(a >= 224 && a <= 239) && !(a === 169 && c === 254);
  }
  if (!ip.includes(':') || !/^[0-9a-fA-F:.]+$/.test(ip)) return undefined;
  const low = ip.toLowerCase();
  if (low === '::' || low === '::1') return false;
  return !low.startsWith('ff') && !/^fe[89ab]/.test(low);
}

/** Upstream validateContainer: the container named, or the only one. */
function containerOf(pod: KubeObject, requested: string): string {
  const spec = o(pod['spec']);
  const name = pod.metadata.name ?? '';
  const all = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) =>
    list(spec[k]).map((c) => s(c['name'])),
  );
  if (requested !== '') {
    if (!all.includes(requested)) {
      throw apiErrors.badRequest(`container ${requested} is not valid for pod ${name}`);
    }
    return requested;
  }
  const containers = list(spec['containers']);
  if (containers.length === 1) return s(containers[0]!['name']);
  if (containers.length === 0) {
    throw apiErrors.badRequest(`a container name must be specified for pod ${name}`);
  }
  throw apiErrors.badRequest(
    `a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`,
  );
}

interface KubeletLocation {
  readonly host: string;
  readonly port: string;
}

/** Go's %v of a []NodeAddress: `[{InternalIP 10.0.0.1} {Hostname n1}]`. */
function formatAddresses(addresses: JsonObject[]): string {
  return `[${addresses.map((a) => `{${s(a['type'])} ${s(a['address'])}}`).join(' ')}]`;
}

/** Upstream NodeConnectionInfoGetter.GetConnectionInfo: the node's preferred address and kubelet port. */
async function kubeletOf(nodes: GenericStore, nodeName: string): Promise<KubeletLocation> {
  const node = await getOrNotFound(nodes, nodesGR, '', nodeName);
  const status = o(node['status']);
  const addresses = list(status['addresses']);
  let host: string | undefined;
  for (const type of preferredAddressTypes) {
    host = addresses.find((a) => a['type'] === type)?.['address'] as string | undefined;
    if (host !== undefined) break;
  }
  if (host === undefined) {
    throw new StatusError(
      500,
      '',
      `no preferred addresses found; known addresses: ${formatAddresses(addresses)}`,
    );
  }
  const port = o(o(status['daemonEndpoints'])['kubeletEndpoint'])['Port'];
  return { host, port: String(typeof port === 'number' && port > 0 ? port : defaultKubeletPort) };
}

/**
 * Dials host:port as Go's net.Dial would and renders its error as Go does
 * (`dial tcp 10.0.0.1:10250: connect: connection refused`); undefined when the connection opened.
 */
export async function dialError(
  host: string,
  port: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const target = joinHostPort(host, port);
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port), timeout: dialTimeoutMs });
    const done = (err: string | undefined): void => {
      signal.removeEventListener('abort', aborted);
      socket.destroy();
      resolve(err);
    };
    const aborted = (): void => done(`dial tcp ${target}: operation was canceled`);
    signal.addEventListener('abort', aborted, { once: true });
    socket.once('connect', () => done(undefined));
    socket.once('timeout', () => done(`dial tcp ${target}: i/o timeout`));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      switch (err.code) {
        case 'ECONNREFUSED':
          return done(`dial tcp ${target}: connect: connection refused`);
        case 'EHOSTUNREACH':
          return done(`dial tcp ${target}: connect: no route to host`);
        case 'ENETUNREACH':
          return done(`dial tcp ${target}: connect: network is unreachable`);
        case 'ETIMEDOUT':
          return done(`dial tcp ${target}: i/o timeout`);
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
          return done(`dial tcp: lookup ${host}: no such host`);
        default:
          return done(`dial tcp ${target}: ${err.message}`);
      }
    });
  });
}

/** The answer when a backend accepted the connection: nanokube cannot talk to it. */
function cannotProxy(target: string): StatusError {
  return new StatusError(
    502,
    '',
    `${target} accepted the connection, but nanokube has no kubelet or proxy client to forward this request`,
  );
}

/** Upstream ValidatePodLogOptions (with the query decoded as PodLogOptions). */
function logOptions(q: URLSearchParams, podName: string): { container: string } {
  const errs: FieldError[] = [];
  const int = (key: string): number | undefined => {
    const v = q.get(key);
    if (v === null) return undefined;
    if (!/^[+-]?\d+$/.test(v))
      throw apiErrors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
    return Number(v);
  };
  const tail = int('tailLines');
  const limit = int('limitBytes');
  const since = int('sinceSeconds');
  const sinceTime = q.get('sinceTime');
  if (tail !== undefined && tail < 0) {
    errs.push(fieldErrors.invalid(FieldPath.root('tailLines'), tail, 'must be greater than or equal to 0'));
  }
  if (limit !== undefined && limit < 1) {
    errs.push(fieldErrors.invalid(FieldPath.root('limitBytes'), limit, 'must be greater than 0'));
  }
  if (since !== undefined && sinceTime !== null && sinceTime !== '') {
    errs.push(
      fieldErrors.forbidden(
        FieldPath.root(''),
        'at most one of `sinceTime` or `sinceSeconds` may be specified',
      ),
    );
  } else if (since !== undefined && since < 1) {
    errs.push(fieldErrors.invalid(FieldPath.root('sinceSeconds'), since, 'must be greater than 0'));
  }
  if (errs.length > 0) throw apiErrors.invalid({ group: '', kind: 'PodLogOptions' }, podName, errs);
  return { container: q.get('container') ?? '' };
}

/** GET pods/{name}/log: 204 for a pod without a node, else the kubelet's error. */
export async function podLog(
  stores: {
    readonly pods: GenericStore;
    readonly nodes: GenericStore;
    /** Simulated nodes in this process, whose followed programs' output is the log. */
    readonly output?: ContainerRelay;
    /** The cluster's clock (default: the wall clock). */
    readonly now?: () => number;
    /** Told when the log of a container is generated lines (the node does not follow its program). */
    readonly onGeneratedLogs?: (namespace: string, pod: string, container: string) => void;
  },
  r: ConnectRequest,
): Promise<ConnectAnswer> {
  const opts = logOptions(r.query, r.name);
  const pod = await getOrNotFound(stores.pods, podsGR, r.namespace, r.name);
  const container = containerOf(pod, opts.container);
  const nodeName = s(o(pod['spec'])['nodeName']);
  if (nodeName === '') return { status: 204 };
  const node = await getOrNotFound(stores.nodes, nodesGR, '', nodeName);
  if (node.metadata.annotations?.[simulatedNodeAnnotation] === 'true') {
    const instance = logInstance(pod, container, queryFlag(r.query, 'previous'));
    const startedAt = instance.startedAt;
    const since = intParam(r.query, 'sinceSeconds');
    const sinceTime = r.query.get('sinceTime');
    const now = (stores.now ?? Date.now)();
    const sinceMs =
      since !== undefined ? now - since * 1000 : sinceTime !== null ? Date.parse(sinceTime) : undefined;
    const tailLines = intParam(r.query, 'tailLines');
    const limitBytes = intParam(r.query, 'limitBytes');
    const base: SimulatedLogOptions = {
      namespace: r.namespace,
      pod: r.name,
      container,
      node: nodeName,
      startedAt: Number.isNaN(startedAt) ? now : startedAt,
      // An exited container wrote its last line before it finished.
      now: instance.finishedAt !== undefined ? Math.min(now, instance.finishedAt) : now,
      timestamps: queryFlag(r.query, 'timestamps'),
      ...(sinceMs !== undefined && !Number.isNaN(sinceMs) ? { sinceMs } : {}),
      ...(tailLines !== undefined && tailLines >= 0 ? { tailLines } : {}),
      ...(limitBytes !== undefined ? { limitBytes } : {}),
    };
    const follow =
      queryFlag(r.query, 'follow') && !queryFlag(r.query, 'previous') && instance.finishedAt === undefined;
    // A container whose program the simulated node follows logs what it printed.
    const source = stores.output?.source;
    const podRef = { namespace: r.namespace, name: r.name, uid: pod.metadata.uid ?? '' };
    const known = source?.output(podRef, container, queryFlag(r.query, 'previous'));
    if (source !== undefined && known !== undefined) {
      return {
        status: 200,
        contentType: 'text/plain',
        body: knownLogStream(
          {
            source,
            pod: podRef,
            container,
            previous: queryFlag(r.query, 'previous'),
            timestamps: queryFlag(r.query, 'timestamps'),
            ...(base.sinceMs !== undefined ? { sinceMs: base.sinceMs } : {}),
            ...(base.tailLines !== undefined ? { tailLines: base.tailLines } : {}),
            ...(base.limitBytes !== undefined ? { limitBytes: base.limitBytes } : {}),
            follow,
            now: stores.now ?? Date.now,
          },
          known,
          r.signal,
        ),
      };
    }
    stores.onGeneratedLogs?.(r.namespace, r.name, container);
    return {
      status: 200,
      contentType: 'text/plain',
      body: simulatedLogStream(stores.pods, pod, base, follow, r.signal),
    };
  }
  const kubelet = await kubeletOf(stores.nodes, nodeName);
  const params = new URLSearchParams();
  for (const key of ['follow', 'previous', 'timestamps']) {
    const v = r.query.get(key);
    if (v !== null && !['false', '0'].includes(v.toLowerCase())) params.append(key, 'true');
  }
  for (const key of ['sinceSeconds', 'sinceTime', 'tailLines', 'limitBytes']) {
    const v = r.query.get(key);
    if (v !== null && v !== '') params.append(key, v);
  }
  const query = params.size > 0 ? `?${params.toString()}` : '';
  const url = `https://${joinHostPort(kubelet.host, kubelet.port)}/containerLogs/${r.namespace}/${r.name}/${container}${query}`;
  const err = await dialError(kubelet.host, kubelet.port, r.signal);
  if (err === undefined) throw cannotProxy(joinHostPort(kubelet.host, kubelet.port));
  throw new StatusError(500, '', `Get ${JSON.stringify(url)}: ${err}`);
}

/** pods/{name}/exec, attach and portforward (upstream streamLocation, PortForwardLocation). */
export async function podStream(
  kind: 'exec' | 'attach' | 'portforward',
  stores: {
    readonly pods: GenericStore;
    readonly nodes: GenericStore;
    /** Simulated nodes in this process: commands run in their containers. */
    readonly containers?: ContainerRelay;
    /** The cluster's clock (default: the wall clock). */
    readonly now?: () => number;
  },
  r: ConnectRequest,
): Promise<ConnectAnswer> {
  const pod = await getOrNotFound(stores.pods, podsGR, r.namespace, r.name);
  const container = kind === 'portforward' ? '' : containerOf(pod, r.query.get('container') ?? '');
  const nodeName = s(o(pod['spec'])['nodeName']);
  if (nodeName === '') throw apiErrors.badRequest(`pod ${r.name} does not have a host assigned`);
  const kubelet = await kubeletOf(stores.nodes, nodeName);
  if (!r.upgrade) throw apiErrors.badRequest('Upgrade request required');
  const source = stores.containers?.source;
  if (kind !== 'portforward' && source !== undefined && (await isSimulated(stores.nodes, nodeName))) {
    // The kubelet's options (remotecommand.NewOptions): tty drops stderr; one stream is needed.
    const streams = {
      stdin: queryFlag(r.query, 'stdin'),
      stdout: queryFlag(r.query, 'stdout'),
      stderr: queryFlag(r.query, 'stderr'),
      tty: queryFlag(r.query, 'tty'),
    };
    if (!streams.stdin && !streams.stdout && !streams.stderr) {
      return {
        status: 400,
        contentType: 'text/plain; charset=utf-8',
        body: ['you must specify at least 1 of stdin, stdout, stderr'],
      };
    }
    const podRef = { namespace: r.namespace, name: r.name, uid: pod.metadata.uid ?? '' };
    return {
      status: 101,
      session:
        kind === 'exec'
          ? execSession({ source, pod: podRef, container, command: r.query.getAll('command'), streams })
          : attachSession({ source, pod: podRef, container, streams, now: stores.now ?? Date.now }),
    };
  }
  const err = await dialError(kubelet.host, kubelet.port, r.signal);
  if (err === undefined) throw cannotProxy(joinHostPort(kubelet.host, kubelet.port));
  throw new StatusError(500, '', `error dialing backend: ${err}`);
}

/** The proxy's answer for a backend location: upstream's proxy transport errors. */
async function proxyTo(host: string, port: string, r: ConnectRequest): Promise<ConnectAnswer> {
  const redirect = r.upgrade || r.http === undefined ? undefined : rootRedirect({ ...r.http, path: r.path });
  if (redirect !== undefined) return { status: redirect.status, headers: redirect.headers };
  const err = await dialError(host, port, r.signal);
  if (err === undefined) throw cannotProxy(joinHostPort(host, port));
  if (r.upgrade) throw new StatusError(500, '', `error dialing backend: ${err}`);
  throw new StatusError(503, 'ServiceUnavailable', `error trying to reach service: ${err}`);
}

function defaultPort(scheme: string): string {
  return scheme === 'https' ? '443' : '80';
}

/** The pod is not one of the simulated nodes' in this process (another process runs it). */
class NotInProcess extends Error {}

/**
 * Proxies a plain HTTP request to a pod of a simulated node in this process, where a server the
 * node follows answers it; undefined when the pod is not one of theirs.
 */
async function proxyToSimulated(
  stores: { readonly nodes: GenericStore; readonly containers?: ContainerRelay },
  pod: KubeObject,
  ip: string,
  port: string,
  tls: boolean,
  r: ConnectRequest,
): Promise<ConnectAnswer | undefined> {
  const source = stores.containers?.source;
  const nodeName = s(o(pod['spec'])['nodeName']);
  if (source === undefined || r.upgrade || nodeName === '' || !(await isSimulated(stores.nodes, nodeName))) {
    return undefined;
  }
  const podRef = {
    namespace: s(pod.metadata.namespace),
    name: s(pod.metadata.name),
    uid: pod.metadata.uid ?? '',
  };
  const http = r.http ?? {
    method: 'GET',
    requestPath: '',
    rawQuery: '',
    headers: {},
    body: () => Promise.resolve(''),
  };
  let answer;
  try {
    answer = await proxyHttp({ ...http, path: r.path }, joinHostPort(ip, port), tls, async (req) => {
      const out = await source.http(podRef, Number(port), req, r.signal);
      if (out === undefined) throw new NotInProcess();
      return out;
    });
  } catch (err) {
    if (err instanceof NotInProcess) return undefined;
    throw err;
  }
  const { 'Content-Type': contentType, ...headers } = answer.headers;
  return {
    status: answer.status,
    ...(contentType !== undefined ? { contentType } : {}),
    headers,
    body: [answer.body],
  };
}

/** pods/{name}/proxy (upstream pod ResourceLocation). */
export async function podProxy(
  stores: { readonly pods: GenericStore; readonly nodes: GenericStore; readonly containers?: ContainerRelay },
  r: ConnectRequest,
): Promise<ConnectAnswer> {
  const id = splitSchemeNamePort(r.name);
  if (id === undefined) throw apiErrors.badRequest(`invalid pod request ${JSON.stringify(r.name)}`);
  const pod = await getOrNotFound(stores.pods, podsGR, r.namespace, id.name);
  let port = id.port;
  if (port === '') {
    for (const c of list(o(pod['spec'])['containers'])) {
      const first = list(c['ports'])[0];
      if (first !== undefined) {
        port = num(first['containerPort']);
        break;
      }
    }
  }
  const ip = s(list(o(pod['status'])['podIPs'])[0]?.['ip']);
  if (isGlobalUnicast(ip) !== true) throw apiErrors.badRequest('address not allowed');
  const to = port === '' ? defaultPort(id.scheme) : port;
  const simulated = await proxyToSimulated(stores, pod, ip, to, id.scheme === 'https', r);
  return simulated ?? proxyTo(ip, to, r);
}

/**
 * nodes/{name}/proxy (upstream node ResourceLocation). A port a simulated node of this process
 * serves over HTTP (`inProcess`) is answered here, as the node would answer the proxied request.
 */
export async function nodeProxy(
  nodes: GenericStore,
  r: ConnectRequest,
  inProcess?: NodePortsRelay,
): Promise<ConnectAnswer> {
  const id = splitSchemeNamePort(r.name);
  if (id === undefined) throw apiErrors.badRequest(`invalid node request ${JSON.stringify(r.name)}`);
  const kubelet = await kubeletOf(nodes, id.name);
  // isProxyableHostname: an IP must be global unicast; a name must resolve to such addresses.
  if (isGlobalUnicast(kubelet.host) === false) throw apiErrors.badRequest('address not allowed');
  const port = id.port === '' || id.port === kubelet.port ? kubelet.port : id.port;
  const source = inProcess?.source;
  if (source !== undefined && id.scheme !== 'https' && !r.upgrade) {
    const redirect = r.http === undefined ? undefined : rootRedirect({ ...r.http, path: r.path });
    if (redirect !== undefined) return { status: redirect.status, headers: redirect.headers };
    const a = await source.answer(id.name, Number(port), r.path === '' ? '/' : r.path);
    if (a !== undefined) {
      const contentType = a.headers['Content-Type'];
      return {
        status: a.status,
        ...(contentType !== undefined ? { contentType } : {}),
        body: [a.body],
      };
    }
  }
  return proxyTo(kubelet.host, port, r);
}

/** services/{name}/proxy (upstream service ResourceLocation). */
export async function serviceProxy(
  stores: {
    readonly services: GenericStore;
    readonly endpoints: GenericStore;
    readonly pods: GenericStore;
    readonly nodes: GenericStore;
    /** Simulated nodes in this process: their pods' servers answer. */
    readonly containers?: ContainerRelay;
  },
  r: ConnectRequest,
): Promise<ConnectAnswer> {
  const id = splitSchemeNamePort(r.name);
  if (id === undefined) throw apiErrors.badRequest(`invalid service request ${JSON.stringify(r.name)}`);
  let portName = id.port;
  if (/^[+-]?\d+$/.test(id.port)) {
    const svc = await getOrNotFound(stores.services, servicesGR, r.namespace, id.name);
    const wanted = Number(id.port);
    const found = list(o(svc['spec'])['ports']).find((p) => p['port'] === wanted);
    if (found === undefined) {
      throw new StatusError(
        503,
        'ServiceUnavailable',
        `no service port ${wanted} found for service ${JSON.stringify(id.name)}`,
      );
    }
    portName = s(found['name']);
  }
  const eps = await getOrNotFound(stores.endpoints, endpointsGR, r.namespace, id.name);
  const subsets = list(eps['subsets']);
  if (subsets.length === 0) {
    throw new StatusError(
      503,
      'ServiceUnavailable',
      `no endpoints available for service ${JSON.stringify(id.name)}`,
    );
  }
  for (const ss of subsets) {
    for (const p of list(ss['ports'])) {
      if (s(p['name']) !== portName) continue;
      // Upstream tries the addresses in a random order (rand.Perm).
      const addresses = list(ss['addresses'])
        .map((a) => ({ a, k: Math.random() }))
        .sort((x, y) => x.k - y.k)
        .map((x) => x.a);
      for (const addr of addresses) {
        // Upstream isValidAddress: the address must belong to a pod of this namespace with that IP.
        const ref = o(addr['targetRef']);
        if (ref['kind'] === undefined || s(ref['namespace']) !== r.namespace) continue;
        const pod = await stores.pods.storage.get(stores.pods.key(r.namespace, s(ref['name'])));
        const ips = list(o(pod?.['status'])['podIPs']).map((x) => s(x['ip']));
        if (pod === undefined || !ips.includes(s(addr['ip']))) continue;
        const simulated = await proxyToSimulated(
          stores,
          pod,
          s(addr['ip']),
          num(p['port']),
          id.scheme === 'https',
          r,
        );
        return simulated ?? proxyTo(s(addr['ip']), num(p['port']), r);
      }
    }
  }
  throw new StatusError(
    503,
    'ServiceUnavailable',
    `no endpoints available for service ${JSON.stringify(r.name)}`,
  );
}
