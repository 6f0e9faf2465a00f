/**
 * DELETE answers with the deleted object, not a Success Status, for the resources whose
 * upstream v1.27 store sets `ReturnDeletedObject: true` (pkg/registry/<group>/<resource>/storage):
 * PersistentVolumeClaims, PersistentVolumes, PodTemplates, ResourceQuotas, storage.k8s.io CSIDrivers,
 * CSINodes, StorageClasses and VolumeAttachments, and the four resource.k8s.io/v1alpha2 kinds (besides
 * pods, services, serviceaccounts and namespaces, tested elsewhere). A kind without it (ConfigMap)
 * still answers with the Status.
 *
 * The StorageObjectInUseProtection admission plugin gives every PersistentVolumeClaim and
 * PersistentVolume a protection finalizer on create, and this server runs no controllers to remove
 * it: as upstream's store, the DELETE of those two is a graceful one that only sets
 * deletionTimestamp (deletionGracePeriodSeconds 0) and answers 200 with that object, which stays
 * until an update removes the finalizer (and then goes, that update answering 200 with the object).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { v127Gates } from '../../src/machinery/features.js';
import { resourceV1alpha2Resources } from '../../src/registry/resources/dra/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Manifest = Record<string, unknown>;

const ns = 'del';
const storage = '/apis/storage.k8s.io/v1';
const dra = '/apis/resource.k8s.io/v1alpha2';
const mergePatch = 'application/merge-patch+json';

/** The finalizer StorageObjectInUseProtection adds on create, per kind. */
const protection: Readonly<Record<string, string>> = {
  PersistentVolumeClaim: 'kubernetes.io/pvc-protection',
  PersistentVolume: 'kubernetes.io/pv-protection',
};

interface Meta {
  name: string;
  uid: string;
  finalizers?: string[];
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
}

const cases: readonly (readonly [collection: string, body: Manifest])[] = [
  [
    `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'claim' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ],
  [
    '/api/v1/persistentvolumes',
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/tmp/pv' },
      },
    },
  ],
  [
    `/api/v1/namespaces/${ns}/podtemplates`,
    {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'tmpl' },
      template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  ],
  [
    `/api/v1/namespaces/${ns}/resourcequotas`,
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'quota' },
      spec: { hard: { pods: '10' } },
    },
  ],
  [
    `${storage}/csidrivers`,
    { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} },
  ],
  [
    `${storage}/csinodes`,
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'node-1' },
      spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1' }] },
    },
  ],
  [
    `${storage}/storageclasses`,
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fast' },
      provisioner: 'csi.example.com',
    },
  ],
  [
    `${storage}/volumeattachments`,
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va' },
      spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv' }, nodeName: 'node-1' },
    },
  ],
  [
    `${dra}/resourceclasses`,
    {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClass',
      metadata: { name: 'gpu' },
      driverName: 'gpu.example.com',
    },
  ],
  [
    `${dra}/namespaces/${ns}/resourceclaims`,
    {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClaim',
      metadata: { name: 'claim' },
      spec: { resourceClassName: 'gpu' },
    },
  ],
  [
    `${dra}/namespaces/${ns}/resourceclaimtemplates`,
    {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'tmpl' },
      spec: { spec: { resourceClassName: 'gpu' } },
    },
  ],
  [
    `${dra}/namespaces/${ns}/podschedulingcontexts`,
    {
      apiVersion: 'resource.k8s.io/v1alpha2',
      kind: 'PodSchedulingContext',
      metadata: { name: 'pod' },
      spec: { selectedNode: 'n1' },
    },
  ],
];

describe('DELETE returns the deleted object where upstream sets ReturnDeletedObject', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      controllers: false,
      storage: 'memory',
      runtimeConfig: 'resource.k8s.io/v1alpha2=true',
      ...(v127Gates['DynamicResourceAllocation'] !== undefined
        ? { featureGates: { DynamicResourceAllocation: true } }
        : {}),
    });
    // Registered here until the composition root serves them with the gate on.
    for (const r of resourceV1alpha2Resources) {
      const path = r.info.namespaced
        ? `${dra}/namespaces/${ns}/${r.info.resource}`
        : `${dra}/${r.info.resource}`;
      if ((await server.request('GET', path)).status === 404) server.resources.add(r);
    }
    const created = await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    assert.equal(created.status, 201, created.text);
  });
  after(() => server.stop());

  for (const [collection, body] of cases) {
    const kind = String(body['kind']);
    it(`${kind}: the object comes back`, async () => {
      const created = await server.request('POST', collection, { body });
      assert.equal(created.status, 201, created.text);
      const obj = created.json<Manifest & { metadata: { name: string; uid: string } }>();
      const deleted = await server.request('DELETE', `${collection}/${obj.metadata.name}`);
      assert.equal(deleted.status, 200, deleted.text);
      const got = deleted.json<Manifest & { metadata: { name: string; uid: string } }>();
      assert.equal(got['kind'], kind, deleted.text);
      assert.equal(got['apiVersion'], body['apiVersion']);
      assert.equal(got.metadata.name, obj.metadata.name);
      assert.equal(got.metadata.uid, obj.metadata.uid);
      const finalizer = protection[kind];
      if (finalizer !== undefined) {
        // Not deleted yet: the object as it stands, marked for deletion, finalizer kept.
        const marked = deleted.json<Manifest & { metadata: Meta }>().metadata;
        assert.equal(typeof marked.deletionTimestamp, 'string', deleted.text);
        assert.equal(marked.deletionGracePeriodSeconds, 0, deleted.text);
        assert.deepEqual(marked.finalizers, [finalizer], deleted.text);
        const still = await server.request('GET', `${collection}/${obj.metadata.name}`);
        assert.equal(still.status, 200, still.text);
        assert.equal(
          still.json<Manifest & { metadata: Meta }>().metadata.deletionTimestamp,
          marked.deletionTimestamp,
        );
        // What the protection controller does once nothing uses it: the update that empties the
        // finalizers deletes the object and answers with it.
        const released = await server.request('PATCH', `${collection}/${obj.metadata.name}`, {
          body: { metadata: { finalizers: (marked.finalizers ?? []).filter((f) => f !== finalizer) } },
          contentType: mergePatch,
        });
        assert.equal(released.status, 200, released.text);
        const last = released.json<Manifest & { metadata: Meta }>();
        assert.equal(last['kind'], kind, released.text);
        assert.equal(last.metadata.uid, obj.metadata.uid);
        assert.deepEqual(last.metadata.finalizers ?? [], [], released.text);
      }
      const gone = await server.request('GET', `${collection}/${obj.metadata.name}`);
      assert.equal(gone.status, 404, gone.text);
    });
  }

  it('ConfigMap (no ReturnDeletedObject): a Success Status', async () => {
    const collection = `/api/v1/namespaces/${ns}/configmaps`;
    const created = await server.request('POST', collection, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
    });
    assert.equal(created.status, 201, created.text);
    const deleted = await server.request('DELETE', `${collection}/cm`);
    assert.equal(deleted.status, 200, deleted.text);
    const got = deleted.json<Manifest>();
    assert.equal(got['kind'], 'Status');
    assert.equal(got['status'], 'Success');
  });
});
