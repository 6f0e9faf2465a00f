import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import { AllocationCache } from './cache.js';
import { rangeKeyRecords } from './ip-records.js';
import { portKey } from './state.js';
import { fakeFactory } from './testing.js';

const value = new TextEncoder().encode('default/svc');

describe('AllocationCache (NW-03: taken state in memory, followed by watches)', () => {
  it('starts from the records, follows later writes, and hands out independent forks', async () => {
    const kv = createMemoryKv();
    await kv.create(rangeKeyRecords.key('10.96.0.1'), value);
    const stop = new AbortController();
    const cache = new AllocationCache({
      kv,
      allocators: fakeFactory(),
      records: rangeKeyRecords,
      signal: stop.signal,
    });
    const first = await cache.current();
    assert.equal(first.ips.get('IPv4')!.has('10.96.0.1'), true);
    // A fork's own allocations stay in the fork.
    first.ips.get('IPv4')!.allocate('10.96.0.9');
    await kv.create(rangeKeyRecords.key('10.96.0.2'), value);
    await kv.create(portKey(30005), value);
    const second = await cache.current();
    assert.equal(second.ips.get('IPv4')!.has('10.96.0.2'), true, 'a record written later');
    assert.equal(second.ports.has(30005), true);
    assert.equal(second.ips.get('IPv4')!.has('10.96.0.9'), false, "another fork's allocation");
    await kv.delete(rangeKeyRecords.key('10.96.0.1'));
    const third = await cache.current();
    assert.equal(third.ips.get('IPv4')!.has('10.96.0.1'), false, 'a record deleted later');
    stop.abort();
    await kv.close();
  });
});
