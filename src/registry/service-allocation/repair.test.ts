import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import { encodeObject } from '../../storage/codec.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import type { KvStore } from '../../storage/kv/types.js';
import { FakeClock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';
import { ipAddressObject, ipAddressRecords, rangeKeyRecords } from './ip-records.js';
import { encodeOwner } from './owner.js';
import { repairAllocations, runRepairLoop } from './repair.js';
import { readAllocations } from './state.js';
import { fakeFactory } from './testing.js';

const put = (kv: KvStore, key: string, value: Uint8Array) =>
  kv.txn({ success: [{ type: 'put', key, value }] });

function service(name: string, spec: JsonObject): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
}

async function putService(kv: KvStore, svc: KubeObject) {
  const key = `/registry/services/specs/default/${svc.metadata.name!}`;
  await put(kv, key, encodeObject(key, svc));
}

const owner = { namespace: 'default', name: 'x' };

describe('allocation repair (NW-03, upstream repair.go)', () => {
  it('records what Services use, frees what none uses, reports conflicts', async () => {
    const kv = createMemoryKv();
    await putService(
      kv,
      service('a', { clusterIPs: ['10.96.0.5'], type: 'NodePort', ports: [{ port: 80, nodePort: 30005 }] }),
    );
    await putService(kv, service('b', { clusterIPs: ['10.96.0.5'] }));
    await putService(kv, service('c', { clusterIPs: ['192.168.0.1'] }));
    await putService(kv, service('d', { clusterIPs: ['None'] }));
    await put(kv, rangeKeyRecords.key('10.96.0.9'), encodeOwner(owner));
    await put(kv, '/registry/ranges/servicenodeports/30009', encodeOwner(owner));
    const logs: string[] = [];
    const report = await repairAllocations({ kv, allocators: fakeFactory(), log: (m) => logs.push(m) });
    assert.deepEqual(report.recordedIPs, ['10.96.0.5']);
    assert.deepEqual(report.releasedIPs, ['10.96.0.9']);
    assert.deepEqual(report.recordedPorts, [30005]);
    assert.deepEqual(report.releasedPorts, [30009]);
    assert.deepEqual(report.problems, [
      'Cluster IP 10.96.0.5 was assigned to multiple services; please recreate service (default/b)',
      'Cluster IP 192.168.0.1 is not within the configured Service CIDR 10.96.0.0/12; please recreate service (default/c)',
    ]);
    const state = await readAllocations(kv);
    assert.deepEqual(
      state.ips.map((k) => k.key),
      ['/registry/ranges/serviceips/10.96.0.5'],
    );
    assert.deepEqual(
      state.ports.map((k) => k.key),
      ['/registry/ranges/servicenodeports/30005'],
    );
    // A second pass has nothing to do.
    const again = await repairAllocations({ kv, allocators: fakeFactory() });
    assert.deepEqual(
      [again.recordedIPs, again.releasedIPs, again.recordedPorts, again.releasedPorts],
      [[], [], [], []],
    );
  });

  it('IPAddress mode: missing objects created, orphans removed, foreign reservations kept, old range keys dropped', async () => {
    const kv = createMemoryKv();
    await putService(kv, service('a', { clusterIPs: ['10.96.0.5'] }));
    const orphan = ipAddressRecords.key('10.96.0.6');
    await put(
      kv,
      orphan,
      encodeObject(orphan, ipAddressObject('10.96.0.6', { namespace: 'default', name: 'gone' })),
    );
    const foreign = ipAddressRecords.key('10.96.0.7');
    const reservation = ipAddressObject('10.96.0.7', owner);
    reservation['spec'] = { parentRef: { group: 'example.com', resource: 'gateways', name: 'gw' } };
    await put(kv, foreign, encodeObject(foreign, reservation));
    await put(kv, rangeKeyRecords.key('10.96.0.5'), encodeOwner(owner));
    const report = await repairAllocations({
      kv,
      allocators: fakeFactory(),
      ipRecords: ipAddressRecords,
      staleIPRecords: rangeKeyRecords,
    });
    assert.deepEqual(report.recordedIPs, ['10.96.0.5']);
    assert.deepEqual(report.releasedIPs, ['10.96.0.6']);
    const made = await kv.range({ key: ipAddressRecords.key('10.96.0.5') });
    assert.deepEqual(ipAddressRecords.ownerOf(made.kvs[0]!.value), { namespace: 'default', name: 'a' });
    assert.equal((await kv.range({ key: foreign })).count, 1);
    assert.equal((await kv.range({ key: rangeKeyRecords.key('10.96.0.5') })).count, 0);
  });

  it('the loop repairs at once and after each interval until aborted', async () => {
    const kv = createMemoryKv();
    const clock = new FakeClock();
    const controller = new AbortController();
    const passes: string[] = [];
    const loop = runRepairLoop({
      kv,
      allocators: fakeFactory(),
      clock,
      intervalMs: 1000,
      signal: controller.signal,
      log: (m) => passes.push(m),
    });
    await put(kv, rangeKeyRecords.key('10.96.0.1'), encodeOwner(owner));
    for (let i = 0; i < 20 && passes.length === 0; i++) {
      clock.advance(1000);
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual(passes, ['the cluster IP 10.96.0.1 appears to have leaked: cleaning up']);
    controller.abort();
    await loop;
  });
});
