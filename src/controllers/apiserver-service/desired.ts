/**
 * What the API server keeps for itself in namespace `default` (upstream v1.27
 * pkg/controlplane/controller.go and pkg/controlplane/reconcilers/): the `kubernetes` Service, its
 * Endpoints (one subset: the advertise address and the secure port) and the EndpointSlice the
 * EndpointsAdapter derives from them. Pure functions; the controller does the I/O.
 */
import { isJsonObject, jsonEqual } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

export const serviceName = 'kubernetes';
export const serviceNamespace = 'default';
/** discoveryv1.LabelSkipMirror: the EndpointSliceMirroring controller leaves these Endpoints alone. */
export const labelSkipMirror = 'endpointslice.kubernetes.io/skip-mirror';
/** discoveryv1.LabelServiceName. */
export const labelServiceName = 'kubernetes.io/service-name';

export interface ApiserverServiceSpec {
  /** The Service's cluster IP: the first address of --service-cluster-ip-range. */
  readonly serviceIP: string;
  /** The Service port (upstream's --kubernetes-service port, 443). */
  readonly servicePort: number;
  /** The address published in the Endpoints: --advertise-address. */
  readonly endpointIP: string;
  /** The server's secure port: the Service's targetPort and the Endpoints port. */
  readonly endpointPort: number;
}

function objectAt(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isJsonObject(v) ? v : undefined;
}

function objectsAt(o: JsonObject | undefined, key: string): JsonObject[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** createPortAndServiceSpec: one TCP port named https, targetPort the secure port; ClusterIP. */
export function servicePorts(s: ApiserverServiceSpec): JsonObject[] {
  return [{ name: 'https', protocol: 'TCP', port: s.servicePort, targetPort: s.endpointPort }];
}

/** createEndpointPortSpec. */
export function endpointPorts(s: ApiserverServiceSpec): JsonObject[] {
  return [{ name: 'https', port: s.endpointPort, protocol: 'TCP' }];
}

/** The Service CreateOrUpdateMasterServiceIfNeeded creates. */
export function desiredService(s: ApiserverServiceSpec): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: serviceName,
      namespace: serviceNamespace,
      labels: { provider: 'kubernetes', component: 'apiserver' },
    },
    spec: {
      ports: servicePorts(s),
      clusterIP: s.serviceIP,
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
  };
}

/** Go's struct equality of two ServicePorts (a set appProtocol pointer never equals ours). */
function samePort(want: JsonObject, got: JsonObject): boolean {
  return (
    got['name'] === want['name'] &&
    got['protocol'] === want['protocol'] &&
    got['port'] === want['port'] &&
    got['targetPort'] === want['targetPort'] &&
    (got['nodePort'] ?? 0) === (want['nodePort'] ?? 0) &&
    got['appProtocol'] === undefined
  );
}

/**
 * checkServiceFormat + getMasterServiceUpdateIfNeeded: the Service with ports and type reset, or
 * undefined when they are as expected.
 */
export function serviceRepair(current: JsonObject, s: ApiserverServiceSpec): JsonObject | undefined {
  const spec = objectAt(current, 'spec');
  const ports = objectsAt(spec, 'ports');
  const want = servicePorts(s);
  const correct =
    spec?.['type'] === 'ClusterIP' &&
    ports.length === want.length &&
    want.every((p, i) => samePort(p, ports[i]!));
  if (correct) return undefined;
  const repaired = structuredClone(current);
  const repairedSpec = objectAt(repaired, 'spec') ?? {};
  repairedSpec['ports'] = want;
  repairedSpec['type'] = 'ClusterIP';
  repaired['spec'] = repairedSpec;
  return repaired;
}

function sameEndpointPort(want: JsonObject, got: JsonObject): boolean {
  return (
    got['name'] === want['name'] &&
    got['port'] === want['port'] &&
    got['protocol'] === want['protocol'] &&
    got['appProtocol'] === undefined
  );
}

/**
 * The lease reconciler's doReconcileEndpoints: `current` (undefined when there is none) as it
 * should be with the addresses `ips` (every API server with a live lease; by default this one's),
 * or undefined when it is right. Ports are only reset when `reconcilePorts` (the first run), as
 * upstream.
 */
export function endpointsRepair(
  current: JsonObject | undefined,
  s: ApiserverServiceSpec,
  reconcilePorts: boolean,
  ips: readonly string[] = [s.endpointIP],
): JsonObject | undefined {
  const e: JsonObject =
    current !== undefined
      ? structuredClone(current)
      : {
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: { name: serviceName, namespace: serviceNamespace },
        };
  const meta = objectAt(e, 'metadata') ?? {};
  e['metadata'] = meta;
  const labels = objectAt(meta, 'labels') ?? {};
  const skipMirrorChanged = labels[labelSkipMirror] !== 'true';
  labels[labelSkipMirror] = 'true';
  meta['labels'] = labels;

  const subsets = objectsAt(e, 'subsets');
  const formatCorrect = subsets.length === 1;
  let portsCorrect = formatCorrect;
  let ipsCorrect = formatCorrect;
  const want = endpointPorts(s);
  if (formatCorrect) {
    const sub = subsets[0]!;
    const ports = objectsAt(sub, 'ports');
    if (reconcilePorts) {
      portsCorrect = ports.length === want.length && want.every((p, i) => sameEndpointPort(p, ports[i]!));
    }
    // checkEndpointSubsetFormatWithLease: the same addresses, in any order.
    const addresses = objectsAt(sub, 'addresses');
    const live = new Set(ips);
    ipsCorrect =
      addresses.length === ips.length &&
      addresses.every((a) => typeof a['ip'] === 'string' && live.has(a['ip']));
  }
  if (current !== undefined && !skipMirrorChanged && formatCorrect && ipsCorrect && portsCorrect) {
    return undefined;
  }
  let out: JsonObject[] = subsets;
  // Something is egregiously wrong: remake the record.
  if (!formatCorrect) out = [{ addresses: [], ports: want }];
  const first = out[0]!;
  if (!formatCorrect || !ipsCorrect) first['addresses'] = ips.map((ip) => ({ ip }));
  if (!portsCorrect) first['ports'] = want;
  e['subsets'] = out;
  return e;
}

/** endpointSliceFromEndpoints: the slice the EndpointsAdapter keeps beside the Endpoints. */
export function endpointSliceFor(endpoints: JsonObject): JsonObject {
  const meta = objectAt(endpoints, 'metadata');
  const name = typeof meta?.['name'] === 'string' ? meta['name'] : serviceName;
  const slice: JsonObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name,
      namespace: typeof meta?.['namespace'] === 'string' ? meta['namespace'] : serviceNamespace,
      labels: { [labelServiceName]: name },
    },
    addressType: 'IPv4',
  };
  const subset = objectsAt(endpoints, 'subsets')[0];
  if (subset === undefined) return slice;
  const ports = objectsAt(subset, 'ports');
  if (ports.length > 0) {
    slice['ports'] = ports.map((p) => ({
      name: p['name'] ?? '',
      port: p['port'] ?? 0,
      protocol: p['protocol'] ?? '',
    }));
  }
  const ready = objectsAt(subset, 'addresses');
  const notReady = objectsAt(subset, 'notReadyAddresses');
  const all = [...ready, ...notReady];
  if (all.length > 0 && all.every((a) => typeof a['ip'] === 'string' && a['ip'].includes(':'))) {
    slice['addressType'] = 'IPv6';
  }
  const endpoint = (address: JsonObject, isReady: boolean): JsonObject => {
    const ep: JsonObject = { addresses: [address['ip'] ?? ''], conditions: { ready: isReady } };
    if (address['nodeName'] !== undefined) ep['nodeName'] = address['nodeName'];
    if (address['targetRef'] !== undefined) ep['targetRef'] = address['targetRef'];
    return ep;
  };
  const eps = [...ready.map((a) => endpoint(a, true)), ...notReady.map((a) => endpoint(a, false))];
  if (eps.length > 0) slice['endpoints'] = eps;
  return slice;
}

/** What EnsureEndpointSliceFromEndpoints compares: endpoints, ports and labels. */
export function sliceUpToDate(current: JsonObject, want: JsonObject): boolean {
  const pick = (o: JsonObject, key: string): JsonValue => o[key] ?? [];
  const labels = (o: JsonObject): JsonValue => objectAt(objectAt(o, 'metadata'), 'labels') ?? {};
  return (
    jsonEqual(pick(current, 'endpoints'), pick(want, 'endpoints')) &&
    jsonEqual(pick(current, 'ports'), pick(want, 'ports')) &&
    jsonEqual(labels(current), labels(want))
  );
}
