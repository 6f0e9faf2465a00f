import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { createMemoryKv } from './kv/memory/memory-kv.js';
import { ObjectCache } from './object-cache.js';
import { KvObjectStore } from './object-store.js';

const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

test('the cache mirrors creates, updates and deletes; misses fall back to storage', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  await storage.create('/ns/a', ns('a'));
  const cache = new ObjectCache(storage, '/ns/');
  const abort = new AbortController();
  const running = cache.run(abort.signal);
  assert.equal((await cache.get('/ns/a'))?.metadata.name, 'a');
  // Created after the cache started: found at once (fallback or watch).
  await storage.create('/ns/b', ns('b'));
  assert.equal((await cache.get('/ns/b'))?.metadata.name, 'b');
  await storage.guaranteedUpdate('/ns/b', (cur) => ({
    ...cur!,
    metadata: { ...cur!.metadata, labels: { x: 'y' } },
  }));
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual((await cache.get('/ns/b'))?.metadata.labels, { x: 'y' });
  await storage.delete('/ns/a');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(await cache.get('/ns/a'), undefined);
  abort.abort();
  await running;
  await kv.close();
});
