/**
 * Resource amounts as the scheduler and the simulated kubelet count them: cpu in millicores,
 * everything else in whole units (bytes for memory and ephemeral-storage), as plain numbers
 * (exact up to 2^53, i.e. 8 PiB). Pod requests follow upstream v1.27
 * k8s.io/kubernetes/pkg/api/v1/resource.PodRequests: the sum over containers, at least each init
 * container's request, plus the pod overhead.
 */
import { parseQuantityJSON, quantityMilliValue, quantityValue } from '../machinery/quantity/quantity.js';
import type { JsonObject } from '../util/json.js';
import { objAt, objsAt } from './json.js';

/** Resource name → amount (cpu in millicores). */
export type ResourceList = Map<string, number>;

/** Upstream's defaults for containers without requests, used only for scoring (non-zero requests). */
export const defaultMilliCPURequest = 100;
export const defaultMemoryRequest = 200 * 1024 * 1024;

/** One quantity in the unit this module counts `name` in; 0 when unreadable. */
export function amountOf(name: string, value: unknown): number {
  try {
    const q = parseQuantityJSON(value);
    if (q === undefined) return 0;
    return Number(name === 'cpu' ? quantityMilliValue(q) : quantityValue(q));
  } catch {
    return 0;
  }
}

/** A ResourceList from a JSON map of quantities (requests, capacity, allocatable, overhead). */
export function resourceList(o: JsonObject | undefined): ResourceList {
  const out: ResourceList = new Map();
  if (o === undefined) return out;
  for (const [name, v] of Object.entries(o)) out.set(name, amountOf(name, v));
  return out;
}

function addInto(into: ResourceList, add: ResourceList): void {
  for (const [k, v] of add) into.set(k, (into.get(k) ?? 0) + v);
}

function maxInto(into: ResourceList, other: ResourceList): void {
  for (const [k, v] of other) if (v > (into.get(k) ?? 0)) into.set(k, v);
}

export interface PodRequests {
  /** What the pod asks for (fit). */
  readonly requests: ResourceList;
  /** cpu and memory with upstream's defaults for containers that ask for none (scoring). */
  readonly nonZeroMilliCPU: number;
  readonly nonZeroMemory: number;
}

function nonZero(requests: ResourceList): { cpu: number; memory: number } {
  return {
    cpu: requests.has('cpu') ? (requests.get('cpu') ?? 0) : defaultMilliCPURequest,
    memory: requests.has('memory') ? (requests.get('memory') ?? 0) : defaultMemoryRequest,
  };
}

export function podRequests(spec: JsonObject | undefined): PodRequests {
  const requests: ResourceList = new Map();
  let cpu = 0;
  let memory = 0;
  for (const c of objsAt(spec, 'containers')) {
    const r = resourceList(objAt(objAt(c, 'resources'), 'requests'));
    addInto(requests, r);
    const nz = nonZero(r);
    cpu += nz.cpu;
    memory += nz.memory;
  }
  for (const c of objsAt(spec, 'initContainers')) {
    const r = resourceList(objAt(objAt(c, 'resources'), 'requests'));
    maxInto(requests, r);
    const nz = nonZero(r);
    cpu = Math.max(cpu, nz.cpu);
    memory = Math.max(memory, nz.memory);
  }
  const overhead = resourceList(objAt(spec, 'overhead'));
  addInto(requests, overhead);
  cpu += overhead.get('cpu') ?? 0;
  memory += overhead.get('memory') ?? 0;
  return { requests, nonZeroMilliCPU: cpu, nonZeroMemory: memory };
}
