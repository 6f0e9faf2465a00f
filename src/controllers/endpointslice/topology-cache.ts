/**
 * Topology aware hints (upstream v1.27 pkg/controller/endpointslice/topologycache, NW-04): the
 * share of allocatable CPU each zone holds over ready nodes (control-plane nodes excluded; any
 * ready node without a zone or CPU disables hints, as do fewer than two zones), and per Service
 * and address type, hints that send each zone its CPU share of ready endpoints within the
 * overload threshold (20 %): every ready endpoint first hints its own zone, then zones above their
 * desired share give endpoints to zones below it.
 *
 * Simplification: upstream keeps the hints of slices it is not otherwise changing when they are
 * still valid; here hints are computed again over every slice of the Service each sync (a slice
 * whose hints change is updated). Events (TopologyAwareHintsEnabled/Disabled) are not recorded.
 */
import { parseQuantity, quantityMilliValue } from '../../machinery/quantity/quantity.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { arr, labels, obj, str } from '../util/objects.js';
import { zoneLabel } from './slice-utils.js';

/** Upstream overloadThreshold. */
const overloadThreshold = 0.2;

interface Allocation {
  readonly minimum: number;
  readonly desired: number;
}

function isNodeReady(node: JsonObject): boolean {
  for (const c of arr(obj(node['status'])['conditions'])) {
    if (isJsonObject(c) && c['type'] === 'Ready') return c['status'] === 'True';
  }
  return false;
}

function milliCpu(node: JsonObject): number {
  const v = obj(obj(node['status'])['allocatable'])['cpu'];
  if (typeof v !== 'string' && typeof v !== 'number') return 0;
  try {
    return Number(quantityMilliValue(parseQuantity(String(v))));
  } catch {
    return 0;
  }
}

/** Zone CPU ratios from the nodes (SetNodes); undefined when hints cannot be given. */
export function zoneRatios(nodes: readonly JsonObject[]): Map<string, number> | undefined {
  const byZone = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    const l = labels(node);
    if ('node-role.kubernetes.io/control-plane' in l || 'node-role.kubernetes.io/master' in l) continue;
    if (!isNodeReady(node)) continue;
    const cpu = milliCpu(node);
    const zone = l[zoneLabel] ?? '';
    if (zone === '' || cpu === 0) return undefined;
    total += cpu;
    byZone.set(zone, (byZone.get(zone) ?? 0) + cpu);
  }
  if (total === 0 || byZone.size < 2) return undefined;
  return new Map([...byZone].sort(([a], [b]) => (a < b ? -1 : 1)).map(([z, c]) => [z, c / total]));
}

/** getAllocations: undefined when the endpoints cannot be spread within the threshold. */
function allocations(ratios: Map<string, number>, numEndpoints: number): Map<string, Allocation> | undefined {
  if (ratios.size > numEndpoints) return undefined;
  let remaining = numEndpoints;
  const out = new Map<string, Allocation>();
  for (const [zone, ratio] of ratios) {
    const desired = ratio * numEndpoints;
    const minimum = Math.ceil(desired * (1 / (1 + overloadThreshold)));
    out.set(zone, { minimum, desired: Math.max(desired, minimum) });
    remaining -= minimum;
    if (remaining < 0) return undefined;
  }
  return out;
}

function isReady(ep: JsonObject): boolean {
  return obj(ep['conditions'])['ready'] === true;
}

/** The zone with the most left (getMost); ties go to the first in name order. */
function most(m: Map<string, number>): [string, number] {
  let zone = '';
  let n = 0;
  for (const [z, v] of [...m].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (v > n) {
      zone = z;
      n = v;
    }
  }
  return [zone, n];
}

/**
 * Sets `hints` on the endpoints of `slices` (all of one Service and address type) and returns
 * true, or removes every hint and returns false when hints cannot be given.
 */
export function assignHints(slices: readonly JsonObject[], ratios: Map<string, number> | undefined): boolean {
  const endpoints = slices.flatMap((s) => arr(s['endpoints']).filter(isJsonObject));
  const clear = (): false => {
    for (const ep of endpoints) delete ep['hints'];
    return false;
  };
  if (ratios === undefined) return clear();
  const ready = endpoints.filter(isReady);
  const alloc = allocations(ratios, ready.length);
  if (alloc === undefined) return clear();
  const allocated = new Map<string, number>();
  for (const ep of endpoints) {
    if (!isReady(ep)) {
      delete ep['hints'];
      continue;
    }
    const zone = str(ep['zone']);
    if (zone === '') return clear();
    allocated.set(zone, (allocated.get(zone) ?? 0) + 1);
    ep['hints'] = { forZones: [{ name: zone }] };
  }
  // getGivingAndReceivingZones.
  const givingDesired = new Map<string, number>();
  const receivingDesired = new Map<string, number>();
  for (const [zone, a] of alloc) {
    const have = allocated.get(zone) ?? 0;
    if (have > a.desired) givingDesired.set(zone, have - a.desired);
    else if (have < a.desired) receivingDesired.set(zone, a.desired - have);
  }
  const giving = new Map<string, number>();
  const receiving = new Map<string, number>();
  for (;;) {
    const [gz, g] = most(givingDesired);
    const [rz, r] = most(receivingDesired);
    if (gz === '' || rz === '' || (g < 1 && r < 1) || g < 0.5 || r < 0.5) break;
    giving.set(gz, (giving.get(gz) ?? 0) + 1);
    givingDesired.set(gz, g - 1);
    receiving.set(rz, (receiving.get(rz) ?? 0) + 1);
    receivingDesired.set(rz, r - 1);
  }
  // redistributeHints.
  for (const ep of ready) {
    if (giving.size === 0 || receiving.size === 0) break;
    const from = str(ep['zone']);
    const toGive = giving.get(from) ?? 0;
    if (toGive <= 0) continue;
    const to = [...receiving].find(([, n]) => n > 0)?.[0];
    if (to === undefined) break;
    ep['hints'] = { forZones: [{ name: to }] };
    if (toGive === 1) giving.delete(from);
    else giving.set(from, toGive - 1);
    const n = receiving.get(to) ?? 0;
    if (n === 1) receiving.delete(to);
    else receiving.set(to, n - 1);
  }
  return true;
}
