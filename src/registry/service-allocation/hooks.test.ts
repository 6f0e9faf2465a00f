import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import type { HookContext } from '../generic/hooks.js';
import { serviceAllocationHooks } from './hooks.js';
import { ipAddressRecords } from './ip-records.js';
import { fakeFactory } from './testing.js';

const ctx: HookContext = {
  namespace: 'default',
  dryRun: false,
  user: { name: 'u', uid: '', groups: [], extra: {} },
};
const svc = (spec: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 's', namespace: 'default' },
  spec: { ...spec },
});

describe('service allocation hooks (NW-03)', () => {
  it('a create asked again (after a lost race) plans from the Service as sent', async () => {
    const kv = createMemoryKv();
    const hooks = serviceAllocationHooks({ kv, allocators: fakeFactory() });
    const obj = svc({ type: 'ClusterIP' });
    const first = await hooks.beforeCreate!(ctx, obj);
    assert.equal((obj['spec'] as { clusterIP: string }).clusterIP, '10.96.0.1');
    // Another write took 10.96.0.1 meanwhile.
    await kv.txn({ success: first!.ops! });
    const second = await hooks.beforeCreate!(ctx, obj);
    assert.equal((obj['spec'] as { clusterIP: string }).clusterIP, '10.96.0.2');
    assert.deepEqual(second!.compare, [
      { key: '/registry/ranges/serviceips/10.96.0.2', target: 'create', operator: '=', value: 0 },
    ]);
  });

  it('delete gives back what the Service held; IPAddress records when configured', async () => {
    const kv = createMemoryKv();
    const hooks = serviceAllocationHooks({ kv, allocators: fakeFactory(), ipRecords: ipAddressRecords });
    const obj = svc({ type: 'ClusterIP' });
    const taken = await hooks.beforeCreate!(ctx, obj);
    assert.equal(taken!.ops![0]!.key, '/registry/ipaddresses/10.96.0.1');
    const released = await hooks.beforeDelete!(ctx, obj);
    assert.deepEqual(released, {
      compare: [],
      ops: [{ type: 'delete', key: '/registry/ipaddresses/10.96.0.1' }],
    });
  });

  it('an update that changes nothing writes nothing', async () => {
    const kv = createMemoryKv();
    const hooks = serviceAllocationHooks({ kv, allocators: fakeFactory() });
    const obj = svc({ type: 'ClusterIP' });
    await kv.txn({ success: (await hooks.beforeCreate!(ctx, obj))!.ops! });
    const next = structuredClone(obj);
    assert.equal(await hooks.beforeUpdate!(ctx, next, obj), undefined);
    assert.deepEqual(next, obj);
  });
});
