/**
 * Building EndpointSlices for a Service (upstream v1.27 pkg/controller/endpointslice/utils.go):
 * address types from the Service's ipFamilies, one endpoint per pod with its conditions, node and
 * zone, ports per pod, labels copied from the Service, the controller ownerReference.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson, isJsonObject } from '../../util/json.js';
import { arr, deleting, labels, meta, name, namespace, obj, str, uid } from '../util/objects.js';
import { isPodReady } from '../util/pods.js';
import {
  findPort,
  headlessLabel,
  hostnameFor,
  isIPv6,
  isServiceIPSet,
  podIPs,
  podTargetRef,
  servicePorts,
} from '../endpoint/pod-endpoints.js';

export const labelServiceName = 'kubernetes.io/service-name';
export const labelManagedBy = 'endpointslice.kubernetes.io/managed-by';
export const controllerName = 'endpointslice-controller.k8s.io';
export const zoneLabel = 'topology.kubernetes.io/zone';
/** Upstream discovery.AddressType values the controller writes. */
export type AddressType = 'IPv4' | 'IPv6';

/** getAddressTypesForService. */
export function addressTypesFor(service: JsonObject): AddressType[] {
  const spec = obj(service['spec']);
  const out = new Set<AddressType>();
  for (const f of arr(spec['ipFamilies'])) {
    if (f === 'IPv4') out.add('IPv4');
    if (f === 'IPv6') out.add('IPv6');
  }
  if (out.size > 0) return [...out];
  // Services from before dual-stack: the cluster IP's family, or both for headless ones.
  if (isServiceIPSet(service)) return [isIPv6(str(spec['clusterIP'])) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}

/** getEndpointPorts: one port per Service port the pod resolves (name always set). */
export function endpointPorts(service: JsonObject, pod: JsonObject): JsonObject[] {
  const ports = servicePorts(service);
  const out: JsonObject[] = [];
  for (const sp of ports) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const appProtocol = sp['appProtocol'];
    out.push({
      name: str(sp['name']),
      port,
      protocol: str(sp['protocol']) || 'TCP',
      ...(typeof appProtocol === 'string' ? { appProtocol } : {}),
    });
  }
  return out;
}

/** podToEndpoint; `node` gives the zone. */
export function podToEndpoint(
  pod: JsonObject,
  node: JsonObject | undefined,
  service: JsonObject,
  addressType: AddressType,
): JsonObject {
  const serving = isPodReady(pod);
  const terminating = deleting(pod);
  // Ready is never true for a terminating pod, unless publishNotReadyAddresses.
  const ready = obj(service['spec'])['publishNotReadyAddresses'] === true || (serving && !terminating);
  const ep: JsonObject = {
    addresses: podIPs(pod).filter((ip) => isIPv6(ip) === (addressType === 'IPv6')),
    conditions: { ready, serving, terminating },
  };
  const hostname = hostnameFor(pod, service);
  if (hostname !== undefined) ep['hostname'] = hostname;
  ep['targetRef'] = podTargetRef(pod);
  const nodeName = str(obj(pod['spec'])['nodeName']);
  if (nodeName !== '') ep['nodeName'] = nodeName;
  const zone = node === undefined ? '' : (labels(node)[zoneLabel] ?? '');
  if (zone !== '') ep['zone'] = zone;
  return ep;
}

/** The identity of an endpoint in a set (upstream hashEndpoint): addresses, hostname, target. */
export function endpointKey(ep: JsonObject): string {
  const ref = obj(ep['targetRef']);
  const addresses = arr(ep['addresses'])
    .map((a) => str(a))
    .sort();
  return JSON.stringify([addresses, str(ep['hostname']), str(ref['namespace']), str(ref['name'])]);
}

/** An endpoint as compared (EndpointsEqualBeyondHash): targetRef resourceVersion ignored. */
export function comparableEndpoint(ep: JsonValue): JsonValue {
  const copy = cloneJson(ep);
  if (isJsonObject(copy) && isJsonObject(copy['targetRef'])) delete copy['targetRef']['resourceVersion'];
  return copy;
}

/** The key slices with the same ports share (endpointutil.NewPortMapKey). */
export function portMapKey(ports: readonly JsonValue[]): string {
  const norm = ports.map((p) => {
    const o = obj(p);
    return [str(o['name']), o['port'] ?? null, str(o['protocol']), str(o['appProtocol'])];
  });
  return JSON.stringify(norm.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)));
}

/**
 * setEndpointSliceLabels: the Service's labels (without the reserved ones), the headless label
 * when it has no cluster IP, service-name and managed-by; and whether `slice` lacks any of them.
 */
export function sliceLabels(
  slice: JsonObject | undefined,
  service: JsonObject,
): { labels: Record<string, string>; changed: boolean } {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels(service))) {
    if (k === labelServiceName || k === labelManagedBy) continue;
    out[k] = v;
  }
  if (!isServiceIPSet(service)) out[headlessLabel] = '';
  else delete out[headlessLabel];
  out[labelServiceName] = name(service);
  out[labelManagedBy] = controllerName;
  const current = slice === undefined ? {} : labels(slice);
  const changed =
    Object.keys(out).length !== Object.keys(current).length ||
    Object.entries(out).some(([k, v]) => current[k] !== v);
  return { labels: out, changed };
}

/** getEndpointSlicePrefix: `<service>-`, shortened to leave room for the generated suffix. */
export function slicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  return prefix.length > 253 - 5 ? serviceName.slice(0, 253 - 5) : prefix;
}

/** newEndpointSlice: empty, owned by the Service, named from it. */
export function newEndpointSlice(
  service: JsonObject,
  ports: readonly JsonValue[],
  addressType: AddressType,
): JsonObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(name(service)),
      namespace: namespace(service),
      labels: sliceLabels(undefined, service).labels,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: name(service),
          uid: uid(service),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType,
    endpoints: [],
    ports: cloneJson([...ports]),
  };
}

/** ownedBy: an ownerReference to this Service (by uid). */
export function ownedBy(slice: JsonObject, service: JsonObject): boolean {
  return arr(meta(slice)['ownerReferences']).some((r) => {
    const o = obj(r);
    return o['kind'] === 'Service' && o['apiVersion'] === 'v1' && o['uid'] === uid(service);
  });
}

/** hintsEnabled: topology-mode (or the deprecated topology-aware-hints) is Auto. */
export function hintsEnabled(service: JsonObject): boolean {
  const ann = obj(meta(service)['annotations']);
  const v = ann['service.kubernetes.io/topology-mode'] ?? ann['service.kubernetes.io/topology-aware-hints'];
  return v === 'Auto' || v === 'auto';
}
