import { serverUser } from '../../machinery/user.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeatureGates } from '../../machinery/features.js';
import type { KubeObject } from '../../machinery/object.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import { KvObjectStore } from '../../storage/object-store.js';
import { configMapsResource } from '../resources/core/configmaps.js';
import { GenericStore } from './store.js';

const cm = (name: string, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

test('an unconditional update retried after a concurrent write still applies (no 409)', async () => {
  const s = new GenericStore({
    resource: configMapsResource,
    storage: new KvObjectStore(createMemoryKv()),
    features: new FeatureGates(),
  });
  await s.create('ns', cm('race', { v: '0' }), { dryRun: false, user: serverUser });
  // A PUT body without resourceVersion; the handler hands the same object to every attempt.
  const body = cm('race', { v: 'put' });
  let calls = 0;
  const result = await s.update(
    'ns',
    'race',
    async () => {
      calls++;
      if (calls === 1) {
        // Another writer commits between this attempt's read and its write.
        await s.update('ns', 'race', () => cm('race', { v: 'other' }), { dryRun: false, user: serverUser });
      }
      return body;
    },
    { dryRun: false, user: serverUser },
  );
  assert.equal(calls, 2);
  assert.deepEqual(result.object.data, { v: 'put' });
  assert.deepEqual((await s.get('ns', 'race')).data, { v: 'put' });
});

test('a delete that races a concurrent update is retried instead of answering 409', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  const s = new GenericStore({ resource: configMapsResource, storage, features: new FeatureGates() });
  await s.create(
    'ns',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r' }, data: { a: '0' } },
    { dryRun: false, user: serverUser },
  );
  // Interleave: many updates while deleting.
  const updates = Array.from({ length: 20 }, (_, i) =>
    storage
      .guaranteedUpdate(s.key('ns', 'r'), (cur) => ({ ...cur!, data: { a: String(i) } }))
      .catch(() => undefined),
  );
  const deleted = await s.delete('ns', 'r', { dryRun: false, user: serverUser });
  await Promise.all(updates);
  assert.equal(deleted.deleted, true);
  await kv.close();
});
