import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { StorageError } from './errors.js';
import { createMemoryKv } from './kv/memory/memory-kv.js';
import { KvObjectStore } from './object-store.js';

const cm = (name: string, data = 'x'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
  data: { k: data },
});

test('resourceVersion is the revision; a no-op update writes nothing', async () => {
  const kv = createMemoryKv();
  const s = new KvObjectStore(kv);
  const created = await s.create('/r/ns/a', cm('a'));
  assert.equal(created.metadata.resourceVersion, String(await kv.currentRevision()));
  const same = await s.guaranteedUpdate('/r/ns/a', (cur) => ({ ...cur!, metadata: { ...cur!.metadata } }));
  assert.equal(same.metadata.resourceVersion, created.metadata.resourceVersion);
  const changed = await s.guaranteedUpdate('/r/ns/a', (cur) => ({ ...cur!, data: { k: 'y' } }));
  assert.ok(Number(changed.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
  await kv.close();
});

test('preconditions and missing keys are typed errors', async () => {
  const kv = createMemoryKv();
  const s = new KvObjectStore(kv);
  await s.create('/r/ns/a', cm('a'));
  await assert.rejects(
    s.delete('/r/ns/a', { preconditions: { uid: 'other' } }),
    (e: unknown) => e instanceof StorageError && e.code === 'PreconditionFailed',
  );
  await assert.rejects(
    s.guaranteedUpdate('/r/ns/missing', (c) => c!),
    (e: unknown) => e instanceof StorageError && e.code === 'NotFound',
  );
  await assert.rejects(
    s.create('/r/ns/a', cm('a')),
    (e: unknown) => e instanceof StorageError && e.code === 'KeyExists',
  );
  await kv.close();
});

test('paged lists with a predicate fill pages with matches and continue at one revision', async () => {
  const kv = createMemoryKv();
  const s = new KvObjectStore(kv);
  for (let i = 0; i < 10; i++) await s.create(`/r/ns/o${i}`, cm(`o${i}`, i % 3 === 0 ? 'yes' : 'no'));
  const predicate = (o: KubeObject) => (o['data'] as { k: string }).k === 'yes';
  const first = await s.list({ prefix: '/r/ns/', limit: 2, predicate });
  assert.deepEqual(
    first.items.map((o) => o.metadata.name),
    ['o0', 'o3'],
  );
  await s.delete('/r/ns/o6');
  const second = await s.list({ prefix: '/r/ns/', limit: 2, predicate, continueToken: first.continueToken! });
  assert.deepEqual(
    second.items.map((o) => o.metadata.name),
    ['o6', 'o9'],
    'the deleted o6 is still in the snapshot',
  );
  assert.equal(second.revision, first.revision);
  await kv.close();
});

test('objects with a TTL share a lease within the reuse window', async () => {
  const kv = createMemoryKv();
  const s = new KvObjectStore(kv);
  await s.create('/r/ns/e1', cm('e1'), { ttlSeconds: 3600 });
  await s.create('/r/ns/e2', cm('e2'), { ttlSeconds: 3600 });
  const r = await kv.range({ key: '/r/ns/', end: '/r/ns0' });
  assert.equal(r.kvs.length, 2);
  assert.ok(r.kvs[0]!.lease > 0);
  assert.equal(r.kvs[0]!.lease, r.kvs[1]!.lease);
  await kv.close();
});

test('#8 guaranteedUpdate may start from a cached copy: no read when current, a read when stale', async () => {
  const kv = createMemoryKv();
  let ranges = 0;
  const counted = new Proxy(kv, {
    get(target, prop, receiver) {
      if (prop === 'range') ranges++;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const s = new KvObjectStore(counted);
  const v1 = await s.create('/r/ns/a', cm('a', '1'));
  const fresh = (await s.get('/r/ns/a'))!;
  ranges = 0;
  const v2 = await s.guaranteedUpdate(
    '/r/ns/a',
    (cur) => ({ ...cur!, data: { ...(cur!['data'] as object), b: '2' } }),
    {
      cachedExisting: fresh,
    },
  );
  assert.equal(ranges, 0, 'started from the cached copy');
  assert.deepEqual(v2['data'], { k: '1', b: '2' });
  assert.deepEqual(fresh['data'], { k: '1' }, 'the cached copy is not modified');
  // A stale copy (v1): the compare fails, storage is read, nothing is lost.
  const v3 = await s.guaranteedUpdate(
    '/r/ns/a',
    (cur) => ({ ...cur!, data: { ...(cur!['data'] as object), c: '3' } }),
    {
      cachedExisting: { ...v1, metadata: { ...v1.metadata, resourceVersion: v1.metadata.resourceVersion! } },
    },
  );
  assert.deepEqual(v3['data'], { k: '1', b: '2', c: '3' });
  // Nothing to write according to a stale copy: storage decides.
  const stale = {
    ...v3,
    data: { k: '1', b: '2' },
    metadata: { ...v3.metadata, resourceVersion: v2.metadata.resourceVersion! },
  };
  const v4 = await s.guaranteedUpdate('/r/ns/a', (cur) => ({ ...cur!, data: { k: '1', b: '2' } }), {
    cachedExisting: stale,
  });
  assert.ok(Number(v4.metadata.resourceVersion) > Number(v3.metadata.resourceVersion));
  assert.deepEqual((await s.get('/r/ns/a'))!['data'], { k: '1', b: '2' });
  // A precondition failing on a stale copy is checked again against storage.
  const v5 = await s.guaranteedUpdate('/r/ns/a', (cur) => ({ ...cur!, data: { k: '5' } }), {
    cachedExisting: stale,
    preconditions: { resourceVersion: v4.metadata.resourceVersion! },
  });
  assert.deepEqual(v5['data'], { k: '5' });
  await kv.close();
});
