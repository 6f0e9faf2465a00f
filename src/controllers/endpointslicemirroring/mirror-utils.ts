/**
 * Turning a custom Endpoints object into EndpointSlices (upstream v1.27
 * pkg/controller/endpointslicemirroring/utils.go): addresses re-printed as Go's net.IP.String
 * prints them, sorted into IPv4 and IPv6 slices, labels and annotations copied from the Endpoints.
 */
import { formatIPBytes, parseIPSloppy } from '../../machinery/validation/ip.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { cloneJson } from '../../util/json.js';
import { annotations, labels, name, namespace, obj, str, uid } from '../util/objects.js';
import { labelManagedBy, labelServiceName, slicePrefix } from '../endpointslice/slice-utils.js';
import type { AddressType } from '../endpointslice/slice-utils.js';

export const mirroringControllerName = 'endpointslicemirroring-controller.k8s.io';
export const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';
const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
const lastChangeTriggerTime = 'endpoints.kubernetes.io/last-change-trigger-time';

/** Go's IP.String of the address and its EndpointSlice address type. */
function formatIP(b: Uint8Array): { readonly text: string; readonly type: AddressType } {
  const text = formatIPBytes(b);
  return { text, type: text.includes(':') ? 'IPv6' : 'IPv4' };
}

/** addressToEndpoint: undefined when the address is not an IP. */
export function addressToEndpoint(
  address: JsonObject,
  ready: boolean,
): { readonly endpoint: JsonObject; readonly type: AddressType } | undefined {
  const bytes = parseIPSloppy(str(address['ip']));
  if (bytes === undefined) return undefined;
  const ip = formatIP(bytes);
  const endpoint: JsonObject = { addresses: [ip.text], conditions: { ready } };
  if (address['targetRef'] !== undefined) endpoint['targetRef'] = cloneJson(address['targetRef']);
  if (typeof address['nodeName'] === 'string') endpoint['nodeName'] = address['nodeName'];
  const hostname = str(address['hostname']);
  if (hostname !== '') endpoint['hostname'] = hostname;
  return { endpoint, type: ip.type };
}

/** epPortsToEpsPorts: name, port and protocol always present. */
export function slicePorts(ports: readonly JsonValue[]): JsonObject[] {
  return ports.map((p) => {
    const o = obj(p);
    const out: JsonObject = {
      name: str(o['name']),
      port: o['port'] ?? 0,
      protocol: str(o['protocol']) || 'TCP',
    };
    if (typeof o['appProtocol'] === 'string') out['appProtocol'] = o['appProtocol'];
    return out;
  });
}

/** The Endpoints' labels with service-name and managed-by set (what a mirrored slice carries). */
export function mirroredLabels(endpoints: JsonObject): Record<string, string> {
  return {
    ...labels(endpoints),
    [labelServiceName]: name(endpoints),
    [labelManagedBy]: mirroringControllerName,
  };
}

/** The Endpoints' annotations but the trigger time and kubectl's last-applied configuration. */
export function mirroredAnnotations(endpoints: JsonObject): Record<string, string> {
  const out = { ...annotations(endpoints) };
  delete out[lastChangeTriggerTime];
  delete out[lastAppliedAnnotation];
  return out;
}

/** newEndpointSlice: owned by the Endpoints (controller reference); `sliceName` '' to generate one. */
export function newMirroredSlice(
  endpoints: JsonObject,
  ports: readonly JsonObject[],
  addressType: AddressType,
  sliceName: string,
): JsonObject {
  const metadata: JsonObject = {
    namespace: namespace(endpoints),
    labels: mirroredLabels(endpoints),
    annotations: mirroredAnnotations(endpoints),
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'Endpoints',
        name: name(endpoints),
        uid: uid(endpoints),
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
  if (sliceName === '') metadata['generateName'] = slicePrefix(name(endpoints));
  else metadata['name'] = sliceName;
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata,
    addressType,
    endpoints: [],
    ports: cloneJson([...ports]),
  };
}
