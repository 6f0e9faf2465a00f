/**
 * The services store's write hooks (NW-03): cluster IPs and node ports taken and given back in the
 * same transaction as the Service (upstream does it around the write with allocator
 * transactions in pkg/registry/core/service/storage/storage.go beginCreate/beginUpdate/afterDelete).
 * A failed write takes nothing; a dry run fills the fields but records nothing.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { SideWrites } from '../../storage/interfaces.js';
import { cloneJson } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { WriteHooks } from '../generic/hooks.js';
import { planCreate, planDelete, planUpdate } from './plan.js';
import { allocatorsFrom, planSideWrites, readAllocations } from './state.js';
import type { AllocationOwner } from './owner.js';
import { rangeKeyRecords } from './ip-records.js';
import type { IPRecords } from './ip-records.js';
import type { AllocationPlan, ServiceAllocatorFactory } from './types.js';
import type { AllocationCache } from './cache.js';

export interface ServiceAllocationHooksOptions {
  readonly kv: KvStore;
  readonly allocators: ServiceAllocatorFactory;
  /** How taken addresses are recorded (default: range keys; IPAddress objects with MultiCIDRServiceAllocator). */
  readonly ipRecords?: IPRecords;
  /** The taken state kept in memory (else every write reads every record). */
  readonly cache?: AllocationCache;
}

export function serviceAllocationHooks(o: ServiceAllocationHooksOptions): WriteHooks {
  // A create retried after a lost race must plan from the Service as it was sent, not as the
  // last attempt filled it.
  const sent = new WeakMap<KubeObject, JsonObject>();
  const restore = (obj: KubeObject): JsonObject => {
    const original = sent.get(obj);
    if (original === undefined) {
      const spec = (obj['spec'] ?? {}) as JsonObject;
      sent.set(obj, cloneJson(spec));
      obj['spec'] = spec;
      return spec;
    }
    const spec = cloneJson(original);
    obj['spec'] = spec;
    return spec;
  };
  const ownerOf = (namespace: string, obj: KubeObject): AllocationOwner => ({
    namespace: obj.metadata.namespace ?? namespace,
    name: obj.metadata.name ?? '',
  });
  const records = o.ipRecords ?? rangeKeyRecords;
  const sideWrites = (plan: AllocationPlan, owner: AllocationOwner): SideWrites | undefined =>
    planSideWrites(plan, owner, (ip) => o.allocators.canonicalIP(ip), records);
  const cache = o.cache;
  const load = async () =>
    cache !== undefined
      ? cache.current()
      : allocatorsFrom(o.allocators, await readAllocations(o.kv, records), records);
  return {
    beforeCreate: async (ctx, obj) => {
      const spec = restore(obj);
      const plan = planCreate(obj.metadata.name ?? '', spec, await load());
      return sideWrites(plan, ownerOf(ctx.namespace, obj));
    },
    beforeUpdate: async (ctx, obj, old) => {
      const spec = restore(obj);
      const oldSpec = (old['spec'] ?? {}) as JsonObject;
      const plan = planUpdate(obj.metadata.name ?? '', spec, oldSpec, await load());
      return sideWrites(plan, ownerOf(ctx.namespace, obj));
    },
    beforeDelete: (ctx, old) => {
      const plan = planDelete((old['spec'] ?? {}) as JsonObject);
      return Promise.resolve(sideWrites(plan, ownerOf(ctx.namespace, old)));
    },
  };
}
