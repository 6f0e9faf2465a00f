/**
 * What the EndpointSlice controller changes for one Service (upstream v1.27
 * pkg/controller/endpointslice/reconciler.go), computed without touching the API:
 *
 * - slices of address types the Service no longer has, or not owned by it, are deleted;
 * - per address type, pods that belong in endpoints (terminating ones included, NW-15) become
 *   endpoints grouped by the ports they resolve; each port group is reconciled as upstream's
 *   reconcileByPortMapping: existing slices keep their desired endpoints (changed ones rewritten),
 *   slices left empty are deleted, updated slices are filled up (fullest first) to 100 endpoints,
 *   then the rest go into the unchanged slice that fits them most tightly, or new slices;
 * - with no slice left for an address type, one placeholder slice (no ports, no endpoints) exists;
 * - topology hints are set or removed (topology-cache.ts);
 * - creates are turned into updates of slices that would be deleted (same address type, owned).
 *
 * Endpoints are identified as upstream's EndpointSet (addresses, hostname, target namespace and
 * name), so two pods sharing an IP (hostNetwork pods, NW-13) are two endpoints. New endpoints are
 * placed in address order (upstream pops them from a set in no particular order).
 */
import type { JsonObject } from '../../util/json.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../util/json.js';
import { arr, name, obj, str } from '../util/objects.js';
import { shouldPodBeInEndpoints } from '../endpoint/pod-endpoints.js';
import { nodeName } from '../util/pods.js';
import { assignHints } from './topology-cache.js';
import {
  addressTypesFor,
  comparableEndpoint,
  endpointKey,
  endpointPorts,
  hintsEnabled,
  newEndpointSlice,
  ownedBy,
  podToEndpoint,
  portMapKey,
  sliceLabels,
} from './slice-utils.js';
import type { AddressType } from './slice-utils.js';

/** Upstream --max-endpoints-per-slice default. */
export const defaultMaxEndpointsPerSlice = 100;

export interface SlicePlan {
  readonly create: JsonObject[];
  readonly update: JsonObject[];
  readonly delete: JsonObject[];
  /** Pods skipped because their node is not known yet (the sync is retried). */
  readonly missingNodes: string[];
}

export interface ReconcileInput {
  readonly service: JsonObject;
  readonly pods: readonly JsonObject[];
  /** Slices of this Service managed by the controller (not being deleted). */
  readonly existing: readonly JsonObject[];
  readonly nodeByName: (name: string) => JsonObject | undefined;
  /** Zone CPU ratios when topology hints are available (undefined: none). */
  readonly zoneRatios?: Map<string, number> | undefined;
  /** Whether the TopologyAwareHints gate is on (beta, default on in v1.27). */
  readonly topologyHints?: boolean;
  readonly maxEndpointsPerSlice?: number;
}

function endpointsOf(slice: JsonObject): JsonObject[] {
  return arr(slice['endpoints']).filter(isJsonObject);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * Address order with runs of digits compared as numbers (10.1.0.2 before 10.1.0.10), the rest by
 * code unit. Written out rather than `localeCompare(..., { numeric: true })`, whose ICU collator
 * faults in megabytes of the node binary's collation data for a comparison of ASCII addresses.
 */
export function compareKeys(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (isDigit(x) && isDigit(y)) {
      let ie = i;
      let je = j;
      while (ie < a.length && isDigit(a.charCodeAt(ie))) ie++;
      while (je < b.length && isDigit(b.charCodeAt(je))) je++;
      const byValue = Number(a.slice(i, ie)) - Number(b.slice(j, je));
      if (byValue !== 0) return byValue;
      i = ie;
      j = je;
    } else {
      if (x !== y) return x - y;
      i++;
      j++;
    }
  }
  return a.length - i - (b.length - j);
}

/** Upstream reconcile: the plan for one Service. */
export function planSlices(input: ReconcileInput): SlicePlan {
  const { service } = input;
  const max = input.maxEndpointsPerSlice ?? defaultMaxEndpointsPerSlice;
  const types = addressTypesFor(service);
  const plan: SlicePlan = { create: [], update: [], delete: [], missingNodes: [] };
  const byType = new Map<string, JsonObject[]>();
  for (const s of input.existing) {
    const t = str(s['addressType']);
    if (!types.includes(t as AddressType)) {
      plan.delete.push(s);
      continue;
    }
    const list = byType.get(t) ?? [];
    list.push(s);
    byType.set(t, list);
  }
  for (const t of types) {
    const part = planAddressType(input, t, byType.get(t) ?? [], max, plan.missingNodes);
    plan.create.push(...part.create);
    plan.update.push(...part.update);
    plan.delete.push(...part.delete);
  }
  return plan;
}

function planAddressType(
  input: ReconcileInput,
  addressType: AddressType,
  existingSlices: readonly JsonObject[],
  max: number,
  missingNodes: string[],
): { create: JsonObject[]; update: JsonObject[]; delete: JsonObject[] } {
  const { service } = input;
  const toCreate: JsonObject[] = [];
  const toUpdate: JsonObject[] = [];
  const toDelete: JsonObject[] = [];
  const existingByPorts = new Map<string, JsonObject[]>();
  for (const s of existingSlices) {
    if (!ownedBy(s, service)) {
      toDelete.push(s);
      continue;
    }
    const k = portMapKey(arr(s['ports']));
    existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), s]);
  }
  const desiredByPorts = new Map<string, { ports: JsonObject[]; endpoints: Map<string, JsonObject> }>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(service, pod);
    const k = portMapKey(ports);
    let d = desiredByPorts.get(k);
    if (d === undefined) desiredByPorts.set(k, (d = { ports, endpoints: new Map() }));
    const nn = nodeName(pod);
    const node = nn === '' ? undefined : input.nodeByName(nn);
    if (nn !== '' && node === undefined) {
      missingNodes.push(nn);
      continue;
    }
    const ep = podToEndpoint(pod, node, service, addressType);
    if (arr(ep['addresses']).length > 0) d.endpoints.set(endpointKey(ep), ep);
  }
  const unchanged: JsonObject[] = [];
  for (const [k, d] of desiredByPorts) {
    const r = planPortMapping(service, existingByPorts.get(k) ?? [], d.endpoints, d.ports, addressType, max);
    toCreate.push(...r.create);
    toUpdate.push(...r.update);
    toDelete.push(...r.delete);
    unchanged.push(...r.unchanged);
  }
  for (const [k, slices] of existingByPorts) if (!desiredByPorts.has(k)) toDelete.push(...slices);

  // A placeholder slice when no other would exist (kept as is when it already is one).
  if (existingSlices.length === toDelete.length && toCreate.length === 0) {
    const placeholder = newEndpointSlice(service, [], addressType);
    const existing = toDelete.length === 1 ? toDelete[0] : undefined;
    if (existing !== undefined && isSamePlaceholder(existing, placeholder, service)) {
      toDelete.length = 0;
      unchanged.push(existing);
    } else {
      toCreate.push(placeholder);
    }
  }

  // Topology hints over every slice the Service will have of this address type.
  const copies = unchanged.map((s) => cloneJson(s));
  if (input.topologyHints !== false && hintsEnabled(service)) {
    assignHints([...toCreate, ...toUpdate, ...copies], input.zoneRatios);
  } else {
    assignHints([...toCreate, ...toUpdate, ...copies], undefined);
  }
  copies.forEach((c, i) => {
    const original = unchanged[i];
    if (original !== undefined && !jsonEqual(c['endpoints'], original['endpoints'])) toUpdate.push(c);
  });

  // finalize: recycle slices to delete as updates of slices to create.
  for (let i = 0; i < toDelete.length && toCreate.length > 0;) {
    const victim = toDelete[i]!;
    const slice = toCreate[toCreate.length - 1]!;
    if (str(victim['addressType']) === str(slice['addressType']) && ownedBy(victim, service)) {
      const m = obj(slice['metadata']);
      delete m['generateName'];
      m['name'] = name(victim);
      m['resourceVersion'] = str(obj(victim['metadata'])['resourceVersion']);
      toCreate.pop();
      toUpdate.push(slice);
      toDelete.splice(i, 1);
    } else {
      i++;
    }
  }
  return { create: toCreate, update: toUpdate, delete: toDelete };
}

/** placeholderSliceCompare: same ports (none), endpoints (none), labels and owner. */
function isSamePlaceholder(existing: JsonObject, placeholder: JsonObject, service: JsonObject): boolean {
  return (
    arr(existing['ports']).length === 0 &&
    arr(existing['endpoints']).length === 0 &&
    str(existing['addressType']) === str(placeholder['addressType']) &&
    !sliceLabels(existing, service).changed &&
    ownedBy(existing, service)
  );
}

function planPortMapping(
  service: JsonObject,
  existing: readonly JsonObject[],
  desired: Map<string, JsonObject>,
  ports: JsonObject[],
  addressType: AddressType,
  max: number,
): { create: JsonObject[]; update: JsonObject[]; delete: JsonObject[]; unchanged: JsonObject[] } {
  const toUpdate = new Map<string, JsonObject>();
  const unchanged = new Map<string, JsonObject>();
  const toDelete: JsonObject[] = [];
  // 1. Keep desired endpoints in the slices they are in; drop the others.
  for (const slice of existing) {
    const kept: JsonObject[] = [];
    let updated = false;
    const current = endpointsOf(slice);
    for (const ep of current) {
      const k = endpointKey(ep);
      const want = desired.get(k);
      if (want === undefined) continue;
      kept.push(want);
      if (!jsonEqual(comparableEndpoint(want), comparableEndpoint(ep))) updated = true;
      desired.delete(k);
    }
    const { labels, changed } = sliceLabels(slice, service);
    if (updated || kept.length !== current.length) {
      if (kept.length === 0) {
        toDelete.push(slice);
      } else {
        const copy = cloneJson(slice);
        copy['endpoints'] = kept;
        obj(copy['metadata'])['labels'] = labels;
        toUpdate.set(name(slice), copy);
      }
    } else if (changed) {
      const copy = cloneJson(slice);
      obj(copy['metadata'])['labels'] = labels;
      toUpdate.set(name(slice), copy);
    } else {
      unchanged.set(name(slice), slice);
    }
  }
  const remaining = [...desired.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([, ep]) => ep);
  const take = (slice: JsonObject): void => {
    const eps = endpointsOf(slice);
    while (remaining.length > 0 && eps.length < max) eps.push(remaining.shift()!);
    slice['endpoints'] = eps;
  };
  // 2. Fill the slices being updated anyway, fullest first.
  if (remaining.length > 0 && toUpdate.size > 0) {
    const slices = [...toUpdate.values()].sort((a, b) => endpointsOf(b).length - endpointsOf(a).length);
    for (const s of slices) take(s);
  }
  // 3. The rest: into the unchanged slice that fits them most tightly, or new slices.
  const toCreate: JsonObject[] = [];
  while (remaining.length > 0) {
    let fill: JsonObject | undefined;
    if (remaining.length < max && unchanged.size > 0) {
      let closest = max;
      for (const s of unchanged.values()) {
        const diff = max - (remaining.length + endpointsOf(s).length);
        if (diff >= 0 && diff < closest) {
          closest = diff;
          fill = s;
        }
      }
    }
    if (fill === undefined) {
      const created = newEndpointSlice(service, ports, addressType);
      take(created);
      toCreate.push(created);
    } else {
      const copy = cloneJson(fill);
      take(copy);
      unchanged.delete(name(fill));
      toUpdate.set(name(fill), copy);
    }
  }
  return {
    create: toCreate,
    update: [...toUpdate.values()],
    delete: toDelete,
    unchanged: [...unchanged.values()],
  };
}
