/**
 * Where allocations live: one key per taken address and per taken port, holding the owning
 * Service (our design; ip-records.ts: or IPAddress objects; upstream keeps one RangeAllocation bitmap per range at /registry/ranges/).
 * A write takes a key only if it does not exist (`create = 0` in the same transaction as the
 * Service), so two concurrent creates can never both hold one address: the loser's transaction
 * fails and its write is planned again on fresh state. Keys survive restarts with the store.
 */
import type { SideWrites } from '../../storage/interfaces.js';
import type { KeyValue, KvStore, TxnCompare, TxnDelete, TxnPut } from '../../storage/kv/types.js';
import { prefixEnd } from '../../storage/kv/types.js';
import type { AllocationPlan, ServiceAllocatorFactory, ServiceAllocators } from './types.js';
import type { IPRecords } from './ip-records.js';
import { encodeOwner } from './owner.js';
import type { AllocationOwner } from './owner.js';
import { rangeKeyRecords } from './ip-records.js';

export const nodePortsPrefix = '/registry/ranges/servicenodeports/';

export const portKey = (port: number): string => nodePortsPrefix + String(port);

export type { AllocationOwner } from './owner.js';

/** The recorded allocations at one revision. */
export interface RecordedAllocations {
  readonly revision: number;
  readonly ips: readonly KeyValue[];
  readonly ports: readonly KeyValue[];
}

export async function readAllocations(
  kv: KvStore,
  records: IPRecords = rangeKeyRecords,
  revision?: number,
): Promise<RecordedAllocations> {
  const ips = await kv.range({
    key: records.prefix,
    end: prefixEnd(records.prefix),
    ...(revision !== undefined ? { revision } : {}),
  });
  const ports = await kv.range({
    key: nodePortsPrefix,
    end: prefixEnd(nodePortsPrefix),
    revision: ips.revision,
  });
  return { revision: ips.revision, ips: ips.kvs, ports: ports.kvs };
}

export const portOfKey = (key: string): number => Number(key.slice(nodePortsPrefix.length));

/** Fresh allocators holding what is recorded (records outside today's ranges are ignored). */
export function allocatorsFrom(
  factory: ServiceAllocatorFactory,
  recorded: RecordedAllocations,
  records: IPRecords = rangeKeyRecords,
): ServiceAllocators {
  const ips = new Map(factory.families.map((f) => [f, factory.ipRange(f)] as const));
  for (const kv of recorded.ips) {
    const ip = records.ipOf(kv.key);
    for (const range of ips.values()) if (range.contains(ip)) range.allocate(ip);
  }
  const ports = factory.portRange();
  for (const kv of recorded.ports) {
    const port = portOfKey(kv.key);
    if (ports.contains(port)) ports.allocate(port);
  }
  return { families: factory.families, ips, ports };
}

/** The plan as side writes: taken keys created (only if absent), given back keys deleted. */
export function planSideWrites(
  plan: AllocationPlan,
  owner: AllocationOwner,
  canonicalIP: (ip: string) => string | undefined,
  records: IPRecords = rangeKeyRecords,
): SideWrites | undefined {
  const compare: TxnCompare[] = [];
  const ops: (TxnPut | TxnDelete)[] = [];
  const take = (key: string, value: Uint8Array) => {
    compare.push({ key, target: 'create', operator: '=', value: 0 });
    ops.push({ type: 'put', key, value });
  };
  const seen = new Set<string>();
  const once = (key: string): boolean => !seen.has(key) && (seen.add(key), true);
  for (const ip of plan.takeIPs) {
    const canonical = canonicalIP(ip) ?? ip;
    const key = records.key(canonical);
    if (once(key)) take(key, records.value(canonical, owner));
  }
  const portValue = encodeOwner(owner);
  for (const port of plan.takePorts) if (once(portKey(port))) take(portKey(port), portValue);
  for (const ip of plan.releaseIPs) {
    const key = records.key(canonicalIP(ip) ?? ip);
    if (once(key)) ops.push({ type: 'delete', key });
  }
  for (const port of plan.releasePorts)
    if (once(portKey(port))) ops.push({ type: 'delete', key: portKey(port) });
  return compare.length === 0 && ops.length === 0 ? undefined : { compare, ops };
}
