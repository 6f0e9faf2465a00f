/**
 * What the Endpoints and EndpointSlice controllers share about Services and their pods (upstream
 * v1.27 pkg/controller/util/endpoint/controller_utils.go and pkg/api/v1/pod FindPort): which
 * Services select a pod, whether a pod belongs in endpoints at all, the port a Service port
 * reaches on a pod, the hostname an address carries, and the pod IP of a given family.
 */
import type { ReadonlyStore } from '../../client/informer-store.js';
import { labelSelectorFromSet } from '../../machinery/labels/selector.js';
import type { LabelSelector } from '../../machinery/labels/selector.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject, jsonEqual } from '../../util/json.js';
import { arr, deleting, labels, meta, name, namespace, obj, str, stringMap } from '../util/objects.js';
import { podPhase } from '../util/pods.js';

/** Upstream v1.TolerateUnreadyEndpointsAnnotation (deprecated, still honoured in v1.27). */
export const tolerateUnreadyAnnotation = 'service.alpha.kubernetes.io/tolerate-unready-endpoints';
export const lastChangeTriggerTimeAnnotation = 'endpoints.kubernetes.io/last-change-trigger-time';
export const overCapacityAnnotation = 'endpoints.kubernetes.io/over-capacity';
export const headlessLabel = 'service.kubernetes.io/headless';
/** resourcelock.LeaderElectionRecordAnnotationKey: Endpoints used as a leader-election lock. */
export const leaderAnnotation = 'control-plane.alpha.kubernetes.io/leader';

/**
 * The Service's pod selector, or undefined when it has none (selector-less Services get their
 * Endpoints from users). An empty map is "none" too: Go's omitempty drops it on the wire.
 */
const parsedSelectors = new WeakMap<JsonObject, LabelSelector | null>();

export function serviceSelector(service: JsonObject): LabelSelector | undefined {
  // Informer objects are replaced, never changed: a selector is parsed once per object.
  const cached = parsedSelectors.get(service);
  if (cached !== undefined) return cached ?? undefined;
  const sel = obj(service['spec'])['selector'];
  const parsed =
    !isJsonObject(sel) || Object.keys(sel).length === 0 ? undefined : labelSelectorFromSet(stringMap(sel));
  parsedSelectors.set(service, parsed ?? null);
  return parsed;
}

export function serviceType(service: JsonObject): string {
  return str(obj(service['spec'])['type']) || 'ClusterIP';
}

/** helper.IsServiceIPSet: a cluster IP other than None. */
export function isServiceIPSet(service: JsonObject): boolean {
  const ip = str(obj(service['spec'])['clusterIP']);
  return ip !== '' && ip !== 'None';
}

/** Services of `services` (the pod's namespace) whose selector matches the pod's labels. */
export function servicesSelecting(services: readonly JsonObject[], pod: JsonObject): JsonObject[] {
  const l = labels(pod);
  return services.filter((s) => serviceSelector(s)?.matches(l) === true);
}

/**
 * Indexes that keep "which Services select this pod" and "which pods does this Service select"
 * from scanning a whole namespace (10,000 Services and 50,000 pods in one namespace made each pod
 * event and each Service sync cost millions of selector checks): Services filed under each
 * `namespace/key=value` of their selector, pods under each of their labels.
 */
export const selectorPairIndex = 'endpoint-selector-pair';
export const labelPairIndex = 'endpoint-label-pair';

const pairKey = (ns: string, k: string, v: string): string => `${ns}\u0000${k}\u0000${v}`;

export function indexServicesBySelector(store: ReadonlyStore): void {
  store.ensureIndex(selectorPairIndex, (s) => {
    const sel = obj(s['spec'])['selector'];
    if (!isJsonObject(sel)) return [];
    return Object.entries(stringMap(sel)).map(([k, v]) => pairKey(namespace(s), k, v));
  });
}

export function indexPodsByLabel(store: ReadonlyStore): void {
  store.ensureIndex(labelPairIndex, (p) =>
    Object.entries(labels(p)).map(([k, v]) => pairKey(namespace(p), k, v)),
  );
}

/** The Services of the pod's namespace whose selector matches it (through selectorPairIndex). */
export function servicesSelectingIndexed(services: ReadonlyStore, pod: JsonObject): JsonObject[] {
  const ns = namespace(pod);
  const l = labels(pod);
  const seen = new Set<JsonObject>();
  const out: JsonObject[] = [];
  for (const [k, v] of Object.entries(l)) {
    for (const s of services.byIndex(selectorPairIndex, pairKey(ns, k, v))) {
      if (seen.has(s)) continue;
      seen.add(s);
      if (serviceSelector(s)?.matches(l) === true) out.push(s);
    }
  }
  return out;
}

/** The pods of the Service's namespace its selector matches (through labelPairIndex). */
export function podsSelectedIndexed(pods: ReadonlyStore, service: JsonObject): JsonObject[] {
  const selector = serviceSelector(service);
  const sel = obj(service['spec'])['selector'];
  if (selector === undefined || !isJsonObject(sel)) return [];
  const ns = namespace(service);
  // The rarest of the selector's pairs narrows the pods to check.
  let best: string | undefined;
  let bestSize = Infinity;
  for (const [k, v] of Object.entries(stringMap(sel))) {
    const key = pairKey(ns, k, v);
    const size = pods.indexSize(labelPairIndex, key);
    if (size < bestSize) {
      best = key;
      bestSize = size;
    }
  }
  if (best === undefined) return [];
  return pods.byIndex(labelPairIndex, best).filter((p) => selector.matches(labels(p)));
}

/** Phase Succeeded or Failed. */
function isPodTerminal(pod: JsonObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The pod's IPs (status.podIPs, or status.podIP when the list is missing). */
export function podIPs(pod: JsonObject): string[] {
  const status = obj(pod['status']);
  const ips = arr(status['podIPs'])
    .map((x) => str(obj(x)['ip']))
    .filter((ip) => ip !== '');
  if (ips.length > 0) return ips;
  const ip = str(status['podIP']);
  return ip === '' ? [] : [ip];
}

export function isIPv6(ip: string): boolean {
  return ip.includes(':');
}

/**
 * endpointutil.ShouldPodBeInEndpoints: not terminal, has an IP, and (unless
 * `includeTerminating`) not being deleted.
 */
export function shouldPodBeInEndpoints(pod: JsonObject, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (podIPs(pod).length === 0) return false;
  if (!includeTerminating && deleting(pod)) return false;
  return true;
}

/** endpointutil.ShouldSetHostname: the pod's hostname, when its subdomain is this Service. */
export function hostnameFor(pod: JsonObject, service: JsonObject): string | undefined {
  const spec = obj(pod['spec']);
  const hostname = str(spec['hostname']);
  if (hostname === '' || str(spec['subdomain']) !== name(service)) return undefined;
  return namespace(service) === namespace(pod) ? hostname : undefined;
}

/**
 * podutil.FindPort: a numeric targetPort as is; a named one is the container port of that name
 * and the Service port's protocol. Undefined when nothing matches.
 */
export function findPort(pod: JsonObject, servicePort: JsonObject): number | undefined {
  const target = servicePort['targetPort'];
  const protocol = str(servicePort['protocol']) || 'TCP';
  if (typeof target === 'number') return target;
  if (typeof target !== 'string' || target === '') {
    // The API defaults targetPort to port; be as lenient for objects that skipped defaulting.
    const port = servicePort['port'];
    return typeof port === 'number' ? port : undefined;
  }
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of arr(obj(pod['spec'])['containers'])) {
    for (const p of arr(obj(c)['ports'])) {
      const cp = obj(p);
      if (str(cp['name']) === target && (str(cp['protocol']) || 'TCP') === protocol) {
        const n = cp['containerPort'];
        if (typeof n === 'number') return n;
      }
    }
  }
  return undefined;
}

/** A pod's ObjectReference as endpoints carry it. */
export function podTargetRef(pod: JsonObject): JsonObject {
  return { kind: 'Pod', namespace: namespace(pod), name: name(pod), uid: str(meta(pod)['uid']) };
}

/** Go's time.RFC3339Nano in UTC (no fraction when whole seconds, trailing zeros dropped). */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d*?)0*Z$/, (_m, frac: string) => (frac === '' ? 'Z' : `.${frac}Z`));
}

/** The Service's port objects. */
export function servicePorts(service: JsonObject): JsonObject[] {
  return arr(obj(service['spec'])['ports']).filter(isJsonObject);
}

/**
 * The keys (`namespace/name`) of the Services a pod change concerns (upstream
 * getPodServiceMemberships of the new pod, and of the old one when its labels changed); none
 * when the resourceVersion did not move (a resync).
 */
export function servicesForPodChange(
  services: ReadonlyStore,
  old: JsonObject | undefined,
  pod: JsonObject,
): Set<string> {
  const keys = new Set<string>();
  if (old !== undefined && str(meta(old)['resourceVersion']) === str(meta(pod)['resourceVersion']))
    return keys;
  const key = (svc: JsonObject): string => `${namespace(svc)}/${name(svc)}`;
  for (const svc of servicesSelectingIndexed(services, pod)) keys.add(key(svc));
  if (old !== undefined && !jsonEqual(meta(old)['labels'] ?? {}, meta(pod)['labels'] ?? {})) {
    for (const svc of servicesSelectingIndexed(services, old)) keys.add(key(svc));
  }
  return keys;
}
