/** A pod's QoS class (upstream qos.GetPodQOS), computed once at create time. */
import { parseQuantity, quantityMilliValue } from '../../../machinery/quantity/quantity.js';
import type { JsonObject } from '../../../util/json.js';
import { obj, objArr } from './access.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const qosResources = ['cpu', 'memory'];

function milli(value: unknown): bigint | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  try {
    return quantityMilliValue(parseQuantity(String(value)));
  } catch {
    return undefined;
  }
}

function add(sum: Map<string, bigint>, list: JsonObject | undefined): Set<string> {
  const present = new Set<string>();
  for (const name of qosResources) {
    const v = milli(list?.[name]);
    if (v === undefined || v === 0n) continue;
    present.add(name);
    sum.set(name, (sum.get(name) ?? 0n) + v);
  }
  return present;
}

export function podQOSClass(spec: JsonObject | undefined): QOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const c of [...objArr(spec, 'containers'), ...objArr(spec, 'initContainers')]) {
    const resources = obj(c, 'resources');
    add(requests, obj(resources, 'requests'));
    const limited = add(limits, obj(resources, 'limits'));
    if (!qosResources.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
