/**
 * Seam 3: write hooks may do I/O before a write and commit their own keys in the same
 * transaction as the object (what transactional IP and port allocation needs): a failed write
 * commits none of them, concurrent writers never both win a claim, a delete releases in the
 * same transaction, and mutating admission sees the user.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiErrors, StatusError } from '../../machinery/errors.js';
import { FeatureGates } from '../../machinery/features.js';
import type { KubeObject } from '../../machinery/object.js';
import { serverUser } from '../../machinery/user.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import type { KvStore } from '../../storage/kv/types.js';
import { KvObjectStore } from '../../storage/object-store.js';
import { configMapsResource } from '../resources/core/configmaps.js';
import type { WriteHooks, WriteOutcome } from './hooks.js';
import { GenericStore } from './store.js';

const claimKey = (port: string): string => `/claims/${port}`;
const portOf = (obj: KubeObject): string => String((obj['data'] as Record<string, string>)['port']);

/** Each ConfigMap claims `data.port`; a port is held by one object at a time. */
function claimingHooks(kv: KvStore, outcomes: WriteOutcome[]): WriteHooks {
  const claim = async (obj: KubeObject) => {
    const key = claimKey(portOf(obj));
    const held = (await kv.range({ key })).kvs[0];
    if (held !== undefined && Buffer.from(held.value).toString() !== obj.metadata.name) {
      throw apiErrors.badRequest(`port ${portOf(obj)} is already allocated`);
    }
    return {
      compare: [{ key, target: 'mod' as const, operator: '=' as const, value: held?.modRevision ?? 0 }],
      ops: [{ type: 'put' as const, key, value: Buffer.from(obj.metadata.name ?? '') }],
    };
  };
  return {
    beforeCreate: (_ctx, obj) => claim(obj),
    beforeUpdate: async (_ctx, obj, old) => {
      const side = await claim(obj);
      if (portOf(old) === portOf(obj)) return side;
      return { ...side, ops: [...side.ops, { type: 'delete' as const, key: claimKey(portOf(old)) }] };
    },
    beforeDelete: (_ctx, old) =>
      Promise.resolve({ ops: [{ type: 'delete' as const, key: claimKey(portOf(old)) }] }),
    afterWrite: (_ctx, outcome) => {
      outcomes.push(outcome);
      return Promise.resolve();
    },
  };
}

function setup(): { kv: KvStore; store: GenericStore; outcomes: WriteOutcome[] } {
  const kv = createMemoryKv();
  const outcomes: WriteOutcome[] = [];
  const store = new GenericStore({
    resource: configMapsResource,
    storage: new KvObjectStore(kv),
    features: new FeatureGates(),
    hooks: claimingHooks(kv, outcomes),
  });
  return { kv, store, outcomes };
}

const cm = (name: string, port: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { port },
});
const write = { dryRun: false, user: serverUser };

async function holder(kv: KvStore, port: string): Promise<string | undefined> {
  const v = (await kv.range({ key: claimKey(port) })).kvs[0];
  return v === undefined ? undefined : Buffer.from(v.value).toString();
}

test('the object and its claim are written at one revision; a failed create commits no claim', async () => {
  const { kv, store, outcomes } = setup();
  const created = await store.create('ns', cm('a', '80'), write);
  const claim = (await kv.range({ key: claimKey('80') })).kvs[0]!;
  assert.equal(String(claim.modRevision), created.object.metadata.resourceVersion);
  // Same name, another port: AlreadyExists, and port 81 stays free.
  await assert.rejects(
    store.create('ns', cm('a', '81'), write),
    (e: unknown) => e instanceof StatusError && e.code === 409,
  );
  assert.equal(await holder(kv, '81'), undefined);
  assert.deepEqual(
    outcomes.map((o) => `${o.operation} ${String(o.ok)}`),
    ['CREATE true', 'CREATE false'],
  );
  // A dry run asks the hook but commits nothing.
  await store.create('ns', cm('dry', '82'), { dryRun: true, user: serverUser });
  assert.equal(await holder(kv, '82'), undefined);
});

test('100 concurrent creates claiming one port: exactly one wins, the rest see it allocated', async () => {
  const { kv, store } = setup();
  const results = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) => store.create('ns', cm(`c${i}`, '443'), write)),
  );
  const won = results.filter((r) => r.status === 'fulfilled');
  assert.equal(won.length, 1);
  for (const r of results) {
    if (r.status === 'rejected') {
      assert.ok(r.reason instanceof StatusError);
      assert.equal(r.reason.status.message, 'port 443 is already allocated');
    }
  }
  assert.equal(await holder(kv, '443'), won[0]!.value.object.metadata.name);
});

test('an update moves the claim and a delete releases it, in the same transactions', async () => {
  const { kv, store } = setup();
  const created = await store.create('ns', cm('m', '8080'), write);
  await store.update(
    'ns',
    'm',
    () => ({ ...cm('m', '9090'), metadata: { ...created.object.metadata } }),
    write,
  );
  assert.equal(await holder(kv, '8080'), undefined);
  assert.equal(await holder(kv, '9090'), 'm');
  await store.delete('ns', 'm', write);
  assert.equal(await holder(kv, '9090'), undefined);
  assert.equal((await store.create('ns', cm('n', '9090'), write)).object.metadata.name, 'n');
});

test('mutating admission runs before validation, with the user', async () => {
  const seen: string[] = [];
  const store = new GenericStore({
    resource: configMapsResource,
    storage: new KvObjectStore(createMemoryKv()),
    features: new FeatureGates(),
    mutatingAdmission: (a) => {
      seen.push(`${a.operation} ${a.user.name}`);
      if (a.object === undefined) return Promise.resolve();
      a.object.metadata.labels = { ...a.object.metadata.labels, mutated: 'yes' };
      // An invalid label value set here is caught by the validation that follows.
      if (a.object.metadata.name === 'bad') a.object.metadata.labels['x'] = '-not valid-';
      return Promise.resolve();
    },
  });
  const created = await store.create('ns', cm('ok', '1'), write);
  assert.equal(created.object.metadata.labels?.['mutated'], 'yes');
  await assert.rejects(
    store.create('ns', cm('bad', '1'), write),
    (e: unknown) => e instanceof StatusError && e.code === 422,
  );
  assert.deepEqual(seen, ['CREATE system:apiserver', 'CREATE system:apiserver']);
});
