import { serverUser } from '../../machinery/user.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../machinery/errors.js';
import { FeatureGates } from '../../machinery/features.js';
import type { KubeObject } from '../../machinery/object.js';
import { createMemoryKv } from '../../storage/kv/memory/memory-kv.js';
import { KvObjectStore } from '../../storage/object-store.js';
import { configMapsResource } from '../resources/core/configmaps.js';
import { GenericStore } from './store.js';
import { objectKey } from './keys.js';
import { openWatch } from './watch.js';

function store(generateName?: (base: string) => string): GenericStore {
  return new GenericStore({
    resource: configMapsResource,
    storage: new KvObjectStore(createMemoryKv()),
    features: new FeatureGates(),
    ...(generateName !== undefined ? { generateName } : {}),
  });
}

const cm = (meta: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { a: 'b' } }) as KubeObject;

test('a generateName collision answers 500 ServerTimeout as upstream, so clients retry', async () => {
  const s = store(() => 'fixed-name');
  await s.create('ns', cm({ generateName: 'fixed-' }), { dryRun: false, user: serverUser });
  await assert.rejects(
    s.create('ns', cm({ generateName: 'fixed-' }), { dryRun: false, user: serverUser }),
    (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.deepEqual(e.status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'The POST operation against ConfigMap could not be completed at this time, please try again.',
        reason: 'ServerTimeout',
        details: { name: 'POST', kind: 'ConfigMap' },
        code: 500,
      });
      return true;
    },
  );
});

test('system fields are set on create and kept on update; a stale resourceVersion conflicts', async () => {
  const s = store();
  const created = (await s.create('ns', cm({ name: 'a', uid: 'mine' }), { dryRun: false, user: serverUser }))
    .object;
  assert.notEqual(created.metadata.uid, 'mine');
  assert.match(created.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const updated = (
    await s.update('ns', 'a', () => cm({ name: 'a', resourceVersion: created.metadata.resourceVersion! }), {
      dryRun: false,
      user: serverUser,
    })
  ).object;
  assert.equal(updated.metadata.uid, created.metadata.uid);
  assert.equal(updated.metadata.creationTimestamp, created.metadata.creationTimestamp);
  await assert.rejects(
    s.update('ns', 'a', () => cm({ name: 'a', resourceVersion: created.metadata.resourceVersion! }), {
      dryRun: false,
      user: serverUser,
    }),
    (e: unknown) => e instanceof StatusError && e.code === 409,
  );
});

test('dry-run create and update persist nothing', async () => {
  const s = store();
  await s.create('ns', cm({ name: 'd' }), { dryRun: true, user: serverUser });
  await assert.rejects(s.get('ns', 'd'), (e: unknown) => e instanceof StatusError && e.code === 404);
  const real = (await s.create('ns', cm({ name: 'e' }), { dryRun: false, user: serverUser })).object;
  await s.update('ns', 'e', () => ({ ...cm({ name: 'e' }), data: { a: 'changed' } }), {
    dryRun: true,
    user: serverUser,
  });
  const after = await s.get('ns', 'e');
  assert.deepEqual(after['data'], { a: 'b' });
  assert.equal(after.metadata.resourceVersion, real.metadata.resourceVersion);
});

test('after compaction an old continue token is 410 Expired and an old watch gets a 410 ERROR event', async () => {
  const kv = createMemoryKv();
  // Storage's rules: a watch cache would serve the old watch from its window, as upstream's does.
  const s = new GenericStore({
    resource: configMapsResource,
    storage: new KvObjectStore(kv),
    features: new FeatureGates(),
    watchCache: false,
  });
  for (const name of ['a', 'b', 'c']) await s.create('ns', cm({ name }), { dryRun: false, user: serverUser });
  const page = await s.list('ns', { limit: 1 });
  assert.ok(page.continue);
  const oldRv = page.resourceVersion;
  await s.create('ns', cm({ name: 'd' }), { dryRun: false, user: serverUser });
  await kv.compact(await kv.currentRevision());
  let inconsistent = '';
  await assert.rejects(s.list('ns', { limit: 1, continue: page.continue }), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 410);
    assert.equal(e.reason, 'Expired');
    assert.match(
      e.message,
      /^The provided continue parameter is too old to display a consistent list result\./,
    );
    // The offered token continues from the same key at the latest revision (rv -1, as etcd3's).
    const offered = (e.status.metadata as { continue?: string }).continue ?? '';
    assert.deepEqual(JSON.parse(Buffer.from(offered, 'base64url').toString('utf8')), {
      v: 'meta.k8s.io/v1',
      rv: -1,
      start: 'a\u0000',
    });
    inconsistent = offered;
    return true;
  });
  const rest = await s.list('ns', { limit: 2, continue: inconsistent });
  assert.deepEqual(
    rest.items.map((i) => i.metadata.name),
    ['b', 'c'],
  );
  assert.equal(rest.resourceVersion, String(await kv.currentRevision()));
  const last = await s.list('ns', { limit: 2, continue: rest.continue ?? '' });
  assert.deepEqual(
    last.items.map((i) => i.metadata.name),
    ['d'],
  );
  const abort = new AbortController();
  const events = await openWatch(
    s,
    'ns',
    { resourceVersion: oldRv, signal: abort.signal },
    new FeatureGates(),
  );
  for await (const ev of events) {
    assert.equal(ev.type, 'ERROR');
    assert.equal(ev.object['code'], 410);
    assert.equal(ev.object['reason'], 'Expired');
    assert.match(ev.object['message'] as string, /^too old resource version: \d+ \(\d+\)$/);
    break;
  }
  abort.abort();
  await kv.close();
});

test('a uid precondition on update is checked as etcd3 GuaranteedUpdate checks storage.Preconditions', async () => {
  const s = store();
  const user = serverUser;
  const created = (await s.create('ns', cm({ name: 'u' }), { dryRun: false, user })).object;
  const body = () => cm({ name: 'u', uid: 'other' });
  const conflict = (stored: string) =>
    `Operation cannot be fulfilled on configmaps "u": StorageError: invalid object, Code: 4, Key: /registry/configmaps/ns/u, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${stored}`;
  await assert.rejects(
    s.update('ns', 'u', body, { dryRun: false, user, uidPrecondition: 'other' }),
    (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 409);
      assert.equal(e.status.reason, 'Conflict');
      assert.equal(e.status.message, conflict(created.metadata.uid!));
      return true;
    },
  );
  // Checked against an empty object when there is none (before the not-found answer).
  await s.delete('ns', 'u', { dryRun: false, user });
  await assert.rejects(
    s.update('ns', 'u', body, { dryRun: false, user, uidPrecondition: 'other' }),
    (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.status.message, conflict(''));
      return true;
    },
  );
});

test("storage keys are kube-apiserver's: its prefixes, <group>/<resource> outside legacyscheme", () => {
  const key = (group: string, resource: string, namespaced = true) =>
    objectKey({ group, resource, namespaced }, 'ns', 'n');
  assert.equal(key('apps', 'deployments'), '/registry/deployments/ns/n');
  assert.equal(key('', 'services'), '/registry/services/specs/ns/n');
  assert.equal(key('', 'endpoints'), '/registry/services/endpoints/ns/n');
  assert.equal(key('', 'nodes', false), '/registry/minions/n');
  assert.equal(key('networking.k8s.io', 'ingresses'), '/registry/ingress/ns/n');
  assert.equal(
    key('apiextensions.k8s.io', 'customresourcedefinitions', false),
    '/registry/apiextensions.k8s.io/customresourcedefinitions/n',
  );
  assert.equal(key('example.com', 'widgets'), '/registry/example.com/widgets/ns/n');
});
