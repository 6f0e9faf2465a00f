/**
 * What the mirroring controller changes for one Endpoints object (upstream v1.27
 * pkg/controller/endpointslicemirroring/reconciler.go): the subsets are first put in canonical
 * form (RepackSubsets, NW-13 #114155: custom Endpoints need not be canonical, and an address
 * listed in two subsets with different ports becomes one endpoint with both ports); each subset's
 * addresses (ready ones first,
 * at most 1000 per subset — the rest are skipped and counted; addresses that are not IPs are
 * skipped too) become endpoints keyed by the subset's ports and the address type; each key has one
 * slice (up to 1000 endpoints), extra slices of a key are deleted, a slice whose endpoints, labels
 * and annotations already match is left alone, keys no longer desired lose their slices, and
 * creates reuse slices about to be deleted (recycleSlices).
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { repackSubsets, subsetsJson } from '../endpoint/desired-endpoints.js';
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../endpoint/desired-endpoints.js';
import { isJsonObject, jsonEqual } from '../../util/json.js';
import { annotations, arr, labels, name, obj, str } from '../util/objects.js';
import {
  comparableEndpoint,
  endpointKey,
  labelManagedBy,
  labelServiceName,
  portMapKey,
} from '../endpointslice/slice-utils.js';
import { addressToEndpoint, mirroredAnnotations, newMirroredSlice, slicePorts } from './mirror-utils.js';

/** Upstream --mirroring-max-endpoints-per-subset default. */
export const defaultMaxEndpointsPerSubset = 1000;

export interface MirrorPlan {
  readonly create: JsonObject[];
  readonly update: JsonObject[];
  readonly delete: JsonObject[];
  /** Addresses not mirrored: not IPs. */
  readonly invalidAddresses: number;
  /** Addresses not mirrored in all (invalid ones and those past the per-subset limit). */
  readonly addressesSkipped: number;
}

interface Desired {
  readonly ports: JsonObject[];
  readonly type: string;
  readonly endpoints: Map<string, JsonObject>;
}

function addressOf(v: JsonValue): EndpointAddress | undefined {
  if (!isJsonObject(v)) return undefined;
  const hostname = str(v['hostname']);
  return {
    ip: str(v['ip']),
    ...(hostname !== '' ? { hostname } : {}),
    ...(typeof v['nodeName'] === 'string' ? { nodeName: v['nodeName'] } : {}),
    ...(isJsonObject(v['targetRef']) ? { targetRef: v['targetRef'] } : {}),
  };
}

function portOf(v: JsonValue): EndpointPort {
  const o = obj(v);
  const portName = str(o['name']);
  return {
    ...(portName !== '' ? { name: portName } : {}),
    port: typeof o['port'] === 'number' ? o['port'] : 0,
    protocol: str(o['protocol']) || 'TCP',
    ...(typeof o['appProtocol'] === 'string' ? { appProtocol: o['appProtocol'] } : {}),
  };
}

/** RepackSubsets over the Endpoints' JSON subsets. */
export function canonicalSubsets(endpoints: JsonObject): JsonObject[] {
  const subsets: EndpointSubset[] = arr(endpoints['subsets']).map((v) => {
    const s = obj(v);
    const list = (field: string): EndpointAddress[] =>
      arr(s[field])
        .map(addressOf)
        .filter((a): a is EndpointAddress => a !== undefined);
    return {
      addresses: list('addresses'),
      notReadyAddresses: list('notReadyAddresses'),
      ports: arr(s['ports']).map(portOf),
    };
  });
  return subsetsJson(repackSubsets(subsets));
}

export function planMirror(
  endpoints: JsonObject,
  existing: readonly JsonObject[],
  maxPerSubset = defaultMaxEndpointsPerSubset,
): MirrorPlan {
  const desired = new Map<string, Desired>();
  let invalid = 0;
  let skipped = 0;
  for (const subsetValue of canonicalSubsets(endpoints)) {
    const subset = obj(subsetValue);
    const ports = slicePorts(arr(subset['ports']));
    const total = arr(subset['addresses']).length + arr(subset['notReadyAddresses']).length;
    let added = 0;
    const add = (field: string, ready: boolean): void => {
      for (const a of arr(subset[field])) {
        if (added >= maxPerSubset) break;
        const ep = isJsonObject(a) ? addressToEndpoint(a, ready) : undefined;
        if (ep === undefined) {
          invalid++;
          continue;
        }
        const key = `${ep.type}\0${portMapKey(ports)}`;
        let d = desired.get(key);
        if (d === undefined) desired.set(key, (d = { ports, type: ep.type, endpoints: new Map() }));
        d.endpoints.set(endpointKey(ep.endpoint), ep.endpoint);
        added++;
      }
    };
    add('addresses', true);
    add('notReadyAddresses', false);
    skipped += total - added;
  }
  const existingByKey = new Map<string, JsonObject[]>();
  for (const s of existing) {
    const key = `${str(s['addressType'])}\0${portMapKey(arr(s['ports']))}`;
    existingByKey.set(key, [...(existingByKey.get(key) ?? []), s]);
  }
  const plan = { create: [] as JsonObject[], update: [] as JsonObject[], delete: [] as JsonObject[] };
  for (const [key, d] of desired) {
    const slices = existingByKey.get(key) ?? [];
    const first = slices[0];
    plan.delete.push(...slices.slice(1));
    if (first !== undefined && matches(first, d, endpoints)) continue;
    const slice = newMirroredSlice(
      endpoints,
      d.ports,
      d.type === 'IPv6' ? 'IPv6' : 'IPv4',
      first === undefined ? '' : name(first),
    );
    const eps = [...d.endpoints.values()].slice(0, maxPerSubset);
    slice['endpoints'] = eps;
    if (first === undefined) plan.create.push(slice);
    else {
      obj(slice['metadata'])['resourceVersion'] = str(obj(first['metadata'])['resourceVersion']);
      plan.update.push(slice);
    }
  }
  for (const [key, slices] of existingByKey) if (!desired.has(key)) plan.delete.push(...slices);
  // recycleSlices.
  for (let i = 0; i < plan.delete.length && plan.create.length > 0;) {
    const victim = plan.delete[i]!;
    const idx = plan.create.findIndex((s) => s['addressType'] === victim['addressType']);
    if (idx < 0) {
      i++;
      continue;
    }
    const slice = plan.create.splice(idx, 1)[0]!;
    const m = obj(slice['metadata']);
    delete m['generateName'];
    m['name'] = name(victim);
    m['resourceVersion'] = str(obj(victim['metadata'])['resourceVersion']);
    plan.update.push(slice);
    plan.delete.splice(i, 1);
  }
  return { ...plan, invalidAddresses: invalid, addressesSkipped: skipped };
}

/** totalChanges is zero and the labels and annotations are the Endpoints' own. */
function matches(slice: JsonObject, d: Desired, endpoints: JsonObject): boolean {
  const current = arr(slice['endpoints']).filter(isJsonObject);
  if (current.length !== d.endpoints.size) return false;
  for (const ep of current) {
    const want = d.endpoints.get(endpointKey(ep));
    if (want === undefined || !jsonEqual(comparableEndpoint(want), comparableEndpoint(ep))) return false;
  }
  const sliceLabels = { ...labels(slice) };
  delete sliceLabels[labelManagedBy];
  delete sliceLabels[labelServiceName];
  return (
    jsonEqual(sliceLabels, labels(endpoints)) && jsonEqual(annotations(slice), mirroredAnnotations(endpoints))
  );
}
