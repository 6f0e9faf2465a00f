/**
 * The Endpoints a Service should have (upstream v1.27 pkg/controller/endpoint/endpoints_controller.go
 * syncService, with pkg/api/v1/endpoints RepackSubsets and truncateEndpoints): one address per pod
 * with an IP of the Service's primary family, ready or not ready, grouped into subsets by the
 * ports they offer, truncated to 1000 addresses.
 *
 * Divergence: upstream orders ports and subsets by a hash of their contents; here ports are
 * ordered by name, port and protocol and subsets by their first address, which is as stable.
 */
import type { JsonObject } from '../../util/json.js';
import { annotations, obj, str } from '../util/objects.js';
import { isPodReady } from '../util/pods.js';
import {
  findPort,
  hostnameFor,
  isIPv6,
  isServiceIPSet,
  podIPs,
  podTargetRef,
  servicePorts,
  shouldPodBeInEndpoints,
  tolerateUnreadyAnnotation,
} from './pod-endpoints.js';

/** Upstream maxCapacity: addresses one Endpoints object carries at most. */
export const maxEndpointsCapacity = 1000;

export interface EndpointPort {
  readonly name?: string;
  readonly port: number;
  readonly protocol: string;
  readonly appProtocol?: string;
}

export interface EndpointAddress {
  readonly ip: string;
  readonly hostname?: string;
  readonly nodeName?: string;
  readonly targetRef?: JsonObject;
}

export interface EndpointSubset {
  addresses: EndpointAddress[];
  notReadyAddresses: EndpointAddress[];
  ports: EndpointPort[];
}

/** publishNotReadyAddresses, or the deprecated annotation when it parses as a boolean. */
export function tolerateUnready(service: JsonObject): boolean {
  let tolerate = obj(service['spec'])['publishNotReadyAddresses'] === true;
  const v = annotations(service)[tolerateUnreadyAnnotation];
  // strconv.ParseBool's spellings.
  if (v !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) tolerate = true;
  if (v !== undefined && ['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) tolerate = false;
  return tolerate;
}

/** The family the Service's addresses come from (podToEndpointAddressForService). */
function wantsIPv6(service: JsonObject, pod: JsonObject): boolean {
  const spec = obj(service['spec']);
  const families = Array.isArray(spec['ipFamilies']) ? spec['ipFamilies'] : [];
  if (typeof families[0] === 'string') return families[0] === 'IPv6';
  if (isServiceIPSet(service)) return isIPv6(str(spec['clusterIP']));
  return isIPv6(str(obj(pod['status'])['podIP']));
}

/** The address of `pod` for `service`, or undefined when it has no IP of the Service's family. */
export function podAddress(service: JsonObject, pod: JsonObject): EndpointAddress | undefined {
  const v6 = wantsIPv6(service, pod);
  const ip = podIPs(pod).find((x) => isIPv6(x) === v6);
  if (ip === undefined) return undefined;
  const hostname = hostnameFor(pod, service);
  return {
    ip,
    ...(hostname !== undefined ? { hostname } : {}),
    nodeName: str(obj(pod['spec'])['nodeName']),
    targetRef: podTargetRef(pod),
  };
}

function portKey(p: EndpointPort): string {
  return JSON.stringify([p.name ?? '', p.port, p.protocol, p.appProtocol ?? '']);
}

function addressKey(a: EndpointAddress): string {
  return `${a.ip}\0${str(a.targetRef?.['uid'])}`;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  return compareStrings(a.ip, b.ip) || compareStrings(str(a.targetRef?.['uid']), str(b.targetRef?.['uid']));
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  return (
    compareStrings(a.name ?? '', b.name ?? '') || a.port - b.port || compareStrings(a.protocol, b.protocol)
  );
}

/**
 * RepackSubsets: every address once (by IP and target uid; ready wins over not ready), grouped by
 * the exact set of ports it offers; addresses with no ports stay in a subset without ports.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addrs = new Map<string, EndpointAddress>();
  const ports = new Map<string, EndpointPort | undefined>();
  /** port key → address key → ready */
  const byPort = new Map<string, Map<string, boolean>>();
  const note = (pk: string, a: EndpointAddress, ready: boolean): void => {
    const ak = addressKey(a);
    if (!addrs.has(ak)) addrs.set(ak, a);
    let m = byPort.get(pk);
    if (m === undefined) byPort.set(pk, (m = new Map<string, boolean>()));
    if (ready) m.set(ak, true);
    else if (!m.has(ak)) m.set(ak, false);
  };
  for (const s of subsets) {
    const list: (EndpointPort | undefined)[] = s.ports.length === 0 ? [undefined] : s.ports;
    for (const p of list) {
      const pk = p === undefined ? 'none' : portKey(p);
      ports.set(pk, p);
      for (const a of s.addresses) note(pk, a, true);
      for (const a of s.notReadyAddresses) note(pk, a, false);
    }
  }
  // Group ports by the address set (with readiness) they are offered on.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const [pk, m] of byPort) {
    const key = [...m].sort(([a], [b]) => compareStrings(a, b)).join('|');
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { ready: m, ports: [] }));
    const p = ports.get(pk);
    if (p !== undefined) g.ports.push(p);
  }
  const out: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [ak, r] of g.ready) {
      const a = addrs.get(ak);
      if (a !== undefined) (r ? ready : notReady).push(a);
    }
    ready.sort(compareAddresses);
    notReady.sort(compareAddresses);
    out.push({ addresses: ready, notReadyAddresses: notReady, ports: g.ports.sort(comparePorts) });
  }
  const first = (s: EndpointSubset): EndpointAddress | undefined => s.addresses[0] ?? s.notReadyAddresses[0];
  return out.sort((a, b) => {
    const fa = first(a);
    const fb = first(b);
    const c = fa === undefined || fb === undefined ? 0 : compareAddresses(fa, fb);
    return c || compareStrings(JSON.stringify(a.ports), JSON.stringify(b.ports));
  });
}

/** The subsets of `service` over the pods its selector matches (before truncation). */
export function desiredSubsets(service: JsonObject, pods: readonly JsonObject[]): EndpointSubset[] {
  const tolerate = tolerateUnready(service);
  const publishNotReady = obj(service['spec'])['publishNotReadyAddresses'] === true;
  const ports = servicePorts(service);
  const subsets: EndpointSubset[] = [];
  const add = (pod: JsonObject, a: EndpointAddress, port: EndpointPort | undefined): void => {
    const ready = tolerate || isPodReady(pod);
    subsets.push({
      addresses: ready ? [a] : [],
      notReadyAddresses: ready ? [] : [a],
      ports: port === undefined ? [] : [port],
    });
  };
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podAddress(service, pod);
    if (address === undefined) continue;
    if (ports.length === 0) {
      // Headless Services without ports still list their pods.
      if (str(obj(service['spec'])['clusterIP']) === 'None') add(pod, address, undefined);
      continue;
    }
    for (const sp of ports) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      const portName = str(sp['name']);
      const appProtocol = str(sp['appProtocol']);
      add(pod, address, {
        ...(portName !== '' ? { name: portName } : {}),
        port,
        protocol: str(sp['protocol']) || 'TCP',
        ...(appProtocol !== '' ? { appProtocol } : {}),
      });
    }
  }
  return repackSubsets(subsets);
}

/**
 * truncateEndpoints: past 1000 addresses, each subset keeps its proportional share (rounded up,
 * the last ones taking what is left) — of ready addresses (dropping every not-ready one) when the
 * ready ones alone exceed the capacity, otherwise of not-ready addresses. True when truncated.
 */
export function truncateSubsets(subsets: EndpointSubset[], max = maxEndpointsCapacity): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += s.addresses.length;
    totalNotReady += s.notReadyAddresses.length;
  }
  if (totalReady + totalNotReady <= max) return false;
  const truncateReady = totalReady > max;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  const maxEndpoints = truncateReady ? max : max - totalReady;
  let remaining = maxEndpoints;
  for (const s of subsets) {
    const inSubset = truncateReady ? s.addresses.length : s.notReadyAddresses.length;
    const keep = Math.min(remaining, Math.ceil((inSubset / numTotal) * maxEndpoints));
    if (truncateReady) {
      s.addresses = s.addresses.slice(0, keep);
      s.notReadyAddresses = [];
    } else {
      s.notReadyAddresses = s.notReadyAddresses.slice(0, keep);
    }
    remaining -= keep;
  }
  return true;
}

/** Subsets as JSON (empty lists omitted, as the API server would store them). */
export function subsetsJson(subsets: readonly EndpointSubset[]): JsonObject[] {
  return subsets.map((s) => {
    const o: JsonObject = {};
    if (s.addresses.length > 0) o['addresses'] = s.addresses.map(addressJson);
    if (s.notReadyAddresses.length > 0) o['notReadyAddresses'] = s.notReadyAddresses.map(addressJson);
    if (s.ports.length > 0) o['ports'] = s.ports.map((p) => ({ ...p }));
    return o;
  });
}

function addressJson(a: EndpointAddress): JsonObject {
  return {
    ip: a.ip,
    ...(a.hostname !== undefined ? { hostname: a.hostname } : {}),
    ...(a.nodeName !== undefined ? { nodeName: a.nodeName } : {}),
    ...(a.targetRef !== undefined ? { targetRef: a.targetRef } : {}),
  };
}
