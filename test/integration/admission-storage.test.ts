/**
 * Integration: the storage plugins of the admission chain on an in-process server over
 * SQLite — DefaultStorageClass (the default class's name for a claim without one, and claims that
 * name theirs left alone), StorageObjectInUseProtection (the protection finalizers of new claims
 * and volumes) and PersistentVolumeClaimResize (growth of a bound claim only when its class
 * allows expansion).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const claim = (metadata: JsonObject, spec: JsonObject = {}, storage = '1Gi'): JsonObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata,
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
});

const storageClass = (name: string, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'example.com/csi',
  ...extra,
});

type Claim = {
  metadata: { name: string; finalizers?: string[]; annotations?: Record<string, string> };
  spec: { storageClassName?: string; resources: { requests: { storage: string } } };
};

describe('storage admission plugins', () => {
  let s: TestServer;
  before(async () => {
    // The defaults (DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize
    // among them); without the controllers no `default` service account exists.
    s = await startTestServer({ controllers: false, nodes: 0, admission: { disable: ['ServiceAccount'] } });
  });
  after(async () => {
    await s.stop();
  });

  const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
  const createClaim = async (body: JsonObject): Promise<Claim> => {
    const r = await s.request('POST', claims, { body });
    assert.equal(r.status, 201, r.text);
    return r.json<Claim>();
  };
  const storedClaim = async (name: string): Promise<Claim> => {
    const r = await s.request('GET', `${claims}/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json<Claim>();
  };
  const createClass = async (body: JsonObject): Promise<void> => {
    const r = await s.request('POST', '/apis/storage.k8s.io/v1/storageclasses', { body });
    assert.equal(r.status, 201, r.text);
  };

  it('DefaultStorageClass: without a default class a claim keeps no class', async () => {
    await createClaim(claim({ name: 'classless' }));
    assert.equal((await storedClaim('classless')).spec.storageClassName, undefined);
  });

  it('DefaultStorageClass: a claim without a class gets the default one; claims naming theirs keep it', async () => {
    await createClass(storageClass('standard'));
    await createClass(
      storageClass('fast', {
        metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      }),
    );
    // The plugin lists classes from the watch cache, a moment behind the write.
    const defaulted = await waitFor('the default class to reach the cache', async () => {
      const c = await createClaim(claim({ generateName: 'defaulted-' }));
      return c.spec.storageClassName === 'fast' ? c : undefined;
    });
    assert.equal((await storedClaim(defaulted.metadata.name)).spec.storageClassName, 'fast');

    await createClaim(claim({ name: 'explicit' }, { storageClassName: 'standard' }));
    assert.equal((await storedClaim('explicit')).spec.storageClassName, 'standard');
    // "" asks for no class at all (a pre-provisioned volume): it stays "".
    await createClaim(claim({ name: 'empty' }, { storageClassName: '' }));
    assert.equal((await storedClaim('empty')).spec.storageClassName, '');
    // The legacy annotation names a class too.
    await createClaim(
      claim({ name: 'beta', annotations: { 'volume.beta.kubernetes.io/storage-class': 'standard' } }),
    );
    const beta = await storedClaim('beta');
    assert.equal(beta.spec.storageClassName, undefined);
    assert.equal(beta.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'], 'standard');
  });

  it('StorageObjectInUseProtection: new claims and volumes get their protection finalizer once', async () => {
    const c = await createClaim(
      claim({ name: 'protected', finalizers: ['example.com/keep'] }, { storageClassName: '' }),
    );
    assert.deepEqual(c.metadata.finalizers, ['example.com/keep', 'kubernetes.io/pvc-protection']);
    assert.deepEqual((await storedClaim('protected')).metadata.finalizers, [
      'example.com/keep',
      'kubernetes.io/pvc-protection',
    ]);
    const again = await createClaim(
      claim({ name: 'already', finalizers: ['kubernetes.io/pvc-protection'] }, { storageClassName: '' }),
    );
    assert.deepEqual(again.metadata.finalizers, ['kubernetes.io/pvc-protection']);

    const pv = await s.request('POST', '/api/v1/persistentvolumes', {
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv1' },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          hostPath: { path: '/data/pv1' },
        },
      },
    });
    assert.equal(pv.status, 201, pv.text);
    const stored = (await s.request('GET', '/api/v1/persistentvolumes/pv1')).json<{
      metadata: { finalizers: string[] };
    }>();
    assert.deepEqual(stored.metadata.finalizers, ['kubernetes.io/pv-protection']);

    // Deleting a protected claim only marks it: the finalizer holds it.
    const del = await s.request('DELETE', `${claims}/already`);
    assert.equal(del.status, 200, del.text);
    const held = await storedClaim('already');
    assert.equal(typeof (held.metadata as JsonObject)['deletionTimestamp'], 'string');
  });

  describe('PersistentVolumeClaimResize', () => {
    /** Marks the claim Bound through /status, as the volume binder would. */
    const bind = async (name: string): Promise<void> => {
      const r = await s.request('PATCH', `${claims}/${name}/status`, {
        raw: JSON.stringify({
          status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } },
        }),
        contentType: 'application/merge-patch+json',
      });
      assert.equal(r.status, 200, r.text);
    };
    const grow = (name: string, storage: string, dryRun = false) =>
      s.request('PATCH', `${claims}/${name}${dryRun ? '?dryRun=All' : ''}`, {
        raw: JSON.stringify({ spec: { resources: { requests: { storage } } } }),
        contentType: 'application/merge-patch+json',
      });
    const refusal = (name: string): JsonObject => ({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
      reason: 'Forbidden',
      details: { name, kind: 'persistentvolumeclaims' },
      code: 403,
    });

    it('a bound claim of a class that allows expansion grows', async () => {
      await createClass(storageClass('elastic', { allowVolumeExpansion: true }));
      await createClaim(claim({ name: 'elastic' }, { storageClassName: 'elastic' }));
      await bind('elastic');
      // The class is read from the watch cache: probe with dry runs until it is there.
      await waitFor(
        'the expandable class to reach the cache',
        async () => (await grow('elastic', '2Gi', true)).status === 200,
      );
      const r = await grow('elastic', '2Gi');
      assert.equal(r.status, 200, r.text);
      assert.equal((await storedClaim('elastic')).spec.resources.requests.storage, '2Gi');
      // Keeping the size (or changing other things) is not a resize.
      const same = await grow('elastic', '2Gi');
      assert.equal(same.status, 200, same.text);
    });

    it('a class without allowVolumeExpansion, or no class at all, refuses growth', async () => {
      await createClass(storageClass('rigid'));
      await createClaim(claim({ name: 'rigid' }, { storageClassName: 'rigid' }));
      await bind('rigid');
      const r = await grow('rigid', '2Gi');
      assert.equal(r.status, 403, r.text);
      assert.deepEqual(r.json(), refusal('rigid'));
      assert.equal((await storedClaim('rigid')).spec.resources.requests.storage, '1Gi');

      await createClaim(claim({ name: 'static' }, { storageClassName: '' }));
      await bind('static');
      const st = await grow('static', '5Gi');
      assert.equal(st.status, 403, st.text);
      assert.deepEqual(st.json(), refusal('static'));

      // A class that does not exist cannot allow it either.
      await createClaim(claim({ name: 'orphan' }, { storageClassName: 'nowhere' }));
      await bind('orphan');
      const orphan = await grow('orphan', '2Gi');
      assert.equal(orphan.status, 403, orphan.text);
      assert.deepEqual(orphan.json(), refusal('orphan'));
    });
  });
});
