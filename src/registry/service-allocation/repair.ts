/**
 * The allocation repair loops (upstream pkg/registry/core/service/ipallocator/controller/repair.go
 * and portallocator/controller/repair.go; with MultiCIDRServiceAllocator also
 * repairip.go's orphan IPAddresses): at start and then periodically, addresses and ports Services
 * use but nothing records are recorded, and records no Service uses are removed.
 *
 * Services and records are read at one revision. Because a Service and its records are written in
 * one transaction there is no window where an allocation is taken but its Service not yet stored,
 * so a record no Service uses at that revision is released at once (upstream waits for a leak to
 * be seen several times); each fix is conditional on the record being unchanged since that
 * revision (or still absent), so a concurrent Service write always wins.
 */
import type { KvStore, KeyValue, TxnCompare } from '../../storage/kv/types.js';
import { prefixEnd } from '../../storage/kv/types.js';
import { jsonStorageCodec } from '../../storage/codec.js';
import type { StorageCodec } from '../../storage/codec.js';
import type { JsonObject } from '../../util/json.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import { servicesInfo } from '../../apis/core/v1/resources.js';
import { resourcePrefix } from '../generic/keys.js';
import type { IPRecords } from './ip-records.js';
import { rangeKeyRecords } from './ip-records.js';
import type { AllocationOwner } from './owner.js';
import { encodeOwner } from './owner.js';
import { heldIPs, heldPorts } from './spec.js';
import { allocatorsFrom, portKey, portOfKey, readAllocations } from './state.js';
import type { ServiceAllocatorFactory } from './types.js';

export interface RepairOptions {
  readonly kv: KvStore;
  readonly allocators: ServiceAllocatorFactory;
  /** How addresses are recorded (default range keys). */
  readonly ipRecords?: IPRecords;
  /** Records of the other kind, removed (the MultiCIDRServiceAllocator gate was switched). */
  readonly staleIPRecords?: IPRecords;
  /** Upstream's event texts (ClusterIPOutOfRange, ...) go here. */
  readonly log?: (message: string) => void;
  /** How stored Services are read (default: JSON only); the store's codec. */
  readonly codec?: StorageCodec;
}

export interface RepairReport {
  readonly recordedIPs: string[];
  readonly releasedIPs: string[];
  readonly recordedPorts: number[];
  readonly releasedPorts: number[];
  /** Problems only a user can fix (out of range, used twice). */
  readonly problems: string[];
}

const ownerText = (o: AllocationOwner) => `${o.namespace}/${o.name}`;

/** One repair pass over addresses and ports. */
export async function repairAllocations(o: RepairOptions): Promise<RepairReport> {
  const records = o.ipRecords ?? rangeKeyRecords;
  const svcPrefix = resourcePrefix(servicesInfo);
  const services = await o.kv.range({ key: svcPrefix, end: prefixEnd(svcPrefix) });
  const revision = services.revision;
  const recorded = await readAllocations(o.kv, records, revision);
  const report: RepairReport = {
    recordedIPs: [],
    releasedIPs: [],
    recordedPorts: [],
    releasedPorts: [],
    problems: [],
  };
  const problem = (msg: string) => {
    report.problems.push(msg);
    o.log?.(msg);
  };
  // Ranges that only hold what Services use, to find addresses used twice or outside the range.
  const fresh = allocatorsFrom(o.allocators, { revision, ips: [], ports: [] }, records);
  const usedIPs = new Map<string, AllocationOwner>();
  const usedPorts = new Map<number, AllocationOwner>();
  for (const kv of services.kvs) {
    let svc;
    try {
      svc = (o.codec ?? jsonStorageCodec).decode(kv);
    } catch {
      continue;
    }
    const owner = { namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' };
    const spec = (svc['spec'] ?? {}) as JsonObject;
    for (const raw of heldIPs(spec)) {
      const ip = o.allocators.canonicalIP(raw);
      if (ip === undefined) continue;
      const range = [...fresh.ips.values()].find((r) => r.contains(ip));
      if (range === undefined) {
        problem(
          `Cluster IP ${ip} is not within the configured Service CIDR ${[...fresh.ips.values()].map((r) => r.cidr).join(',')}; please recreate service (${ownerText(owner)})`,
        );
        continue;
      }
      if (range.has(ip)) {
        problem(
          `Cluster IP ${ip} was assigned to multiple services; please recreate service (${ownerText(owner)})`,
        );
        continue;
      }
      range.allocate(ip);
      usedIPs.set(ip, owner);
    }
    for (const port of heldPorts(spec)) {
      if (!fresh.ports.contains(port)) {
        problem(
          `Port ${port} is not within the port range ${fresh.ports.range}; please recreate service (${ownerText(owner)})`,
        );
        continue;
      }
      if (fresh.ports.has(port)) {
        problem(
          `Port allocation ${port} was assigned to multiple services; please recreate service (${ownerText(owner)})`,
        );
        continue;
      }
      fresh.ports.allocate(port);
      usedPorts.set(port, owner);
    }
  }
  const recordedIPs = new Map<string, KeyValue>(recorded.ips.map((kv) => [records.ipOf(kv.key), kv]));
  const recordedPorts = new Map<number, KeyValue>(recorded.ports.map((kv) => [portOfKey(kv.key), kv]));
  const absent = (key: string): TxnCompare => ({ key, target: 'create', operator: '=', value: 0 });
  const unchanged = (kv: KeyValue): TxnCompare => ({
    key: kv.key,
    target: 'mod',
    operator: '=',
    value: kv.modRevision,
  });
  for (const [ip, owner] of usedIPs) {
    if (recordedIPs.has(ip)) continue;
    const key = records.key(ip);
    const r = await o.kv.txn({
      compare: [absent(key)],
      success: [{ type: 'put', key, value: records.value(ip, owner) }],
    });
    if (r.succeeded) {
      report.recordedIPs.push(ip);
      o.log?.(`Cluster IP ${ip} is not allocated; repairing (${ownerText(owner)})`);
    }
  }
  for (const [ip, kv] of recordedIPs) {
    if (usedIPs.has(ip)) continue;
    // IPAddress objects that name no Service are someone else's reservation: left alone.
    if (records !== rangeKeyRecords && records.ownerOf(kv.value) === undefined) continue;
    const r = await o.kv.txn({ compare: [unchanged(kv)], success: [{ type: 'delete', key: kv.key }] });
    if (r.succeeded) {
      report.releasedIPs.push(ip);
      o.log?.(`the cluster IP ${ip} appears to have leaked: cleaning up`);
    }
  }
  for (const [port, owner] of usedPorts) {
    if (recordedPorts.has(port)) continue;
    const key = portKey(port);
    const r = await o.kv.txn({
      compare: [absent(key)],
      success: [{ type: 'put', key, value: encodeOwner(owner) }],
    });
    if (r.succeeded) {
      report.recordedPorts.push(port);
      o.log?.(`the node port ${port} for service ${ownerText(owner)} is not allocated; repairing`);
    }
  }
  for (const [port, kv] of recordedPorts) {
    if (usedPorts.has(port)) continue;
    const r = await o.kv.txn({ compare: [unchanged(kv)], success: [{ type: 'delete', key: kv.key }] });
    if (r.succeeded) {
      report.releasedPorts.push(port);
      o.log?.(`the node port ${port} appears to have leaked: cleaning up`);
    }
  }
  if (o.staleIPRecords !== undefined && o.staleIPRecords.prefix !== records.prefix) {
    const stale = o.staleIPRecords;
    const old = await o.kv.range({ key: stale.prefix, end: prefixEnd(stale.prefix), revision });
    for (const kv of old.kvs) {
      // Only records this allocator made (IPAddresses of other owners stay).
      if (stale.ownerOf(kv.value) === undefined) continue;
      await o.kv.txn({ compare: [unchanged(kv)], success: [{ type: 'delete', key: kv.key }] });
    }
  }
  return report;
}

export interface RepairLoopOptions extends RepairOptions {
  readonly signal: AbortSignal;
  /** Between passes (upstream's 3 minutes). */
  readonly intervalMs?: number;
  readonly clock?: Clock;
  /** Wait one interval before the first pass (the caller already ran one). */
  readonly waitFirst?: boolean;
}

export const defaultRepairIntervalMs = 3 * 60 * 1000;

/** Repairs now and then every interval until `signal` aborts; a failed pass is logged and retried next time. */
export async function runRepairLoop(o: RepairLoopOptions): Promise<void> {
  const interval = o.intervalMs ?? defaultRepairIntervalMs;
  const clock = o.clock ?? realClock;
  if (o.waitFirst === true) await clock.sleep(interval, o.signal).catch(() => undefined);
  while (!o.signal.aborted) {
    try {
      await repairAllocations(o);
    } catch (err) {
      if (o.signal.aborted) return;
      o.log?.(`service allocation repair failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    await clock.sleep(interval, o.signal).catch(() => undefined);
  }
}
