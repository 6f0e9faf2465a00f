/**
 * The volume controllers and StorageObjectInUseProtection against the in-process
 * server: the protection finalizers on create, a claim in use by a pod (and a Bound volume) kept
 * until released, binding (smallest match, pre-binding both ways, selector, class mismatch and
 * external provisioning staying Pending, WaitForFirstConsumer), and reclaiming a Released volume.
 * Each test uses its own storage class names so that claims only see their own volumes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LegacyEventRecorder } from '../../src/client/legacy-event-recorder.js';
import {
  PersistentVolumeBinder,
  PvcProtectionController,
  PvProtectionController,
} from '../../src/controllers/volume/index.js';
import type { JsonObject } from '../../src/util/json.js';
import { container, createNamespace, items, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'volume-test';
const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
const volumes = '/api/v1/persistentvolumes';

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const onError = (e: unknown): void => void c.errors.push(e);
  const events = new LegacyEventRecorder({
    client: c.client,
    component: 'persistentvolume-controller',
    onError,
  });
  const pvc = new PvcProtectionController({ client: c.client, informers: c.informers, onError });
  const pv = new PvProtectionController({ client: c.client, informers: c.informers, onError });
  const binder = new PersistentVolumeBinder({
    client: c.client,
    informers: c.informers,
    events,
    onError,
    syncPeriodMs: 300,
  });
  c.start([(s) => pvc.run(s), (s) => pv.run(s), (s) => binder.run(s)]);
});

after(async () => {
  await c.stop();
});

const meta = (o: JsonObject): JsonObject => (o['metadata'] ?? {}) as JsonObject;
const spec = (o: JsonObject): JsonObject => (o['spec'] ?? {}) as JsonObject;
const status = (o: JsonObject): JsonObject => (o['status'] ?? {}) as JsonObject;
const annotationsOf = (o: JsonObject): Record<string, string> =>
  (meta(o)['annotations'] ?? {}) as Record<string, string>;

interface VolumeOpts {
  readonly cls: string;
  readonly size?: string;
  readonly labels?: Record<string, string>;
  readonly policy?: string;
  readonly claimRef?: JsonObject;
}

async function createVolume(name: string, o: VolumeOpts): Promise<JsonObject> {
  return c.client.request('POST', volumes, {
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, ...(o.labels !== undefined ? { labels: o.labels } : {}) },
      spec: {
        capacity: { storage: o.size ?? '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: o.cls,
        persistentVolumeReclaimPolicy: o.policy ?? 'Retain',
        hostPath: { path: `/tmp/${name}` },
        ...(o.claimRef !== undefined ? { claimRef: o.claimRef } : {}),
      },
    },
  });
}

interface ClaimOpts {
  readonly cls: string;
  readonly size?: string;
  readonly volumeName?: string;
  readonly selector?: JsonObject;
}

async function createClaim(name: string, o: ClaimOpts): Promise<JsonObject> {
  return c.client.request('POST', claims, {
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: o.size ?? '1Gi' } },
        storageClassName: o.cls,
        ...(o.volumeName !== undefined ? { volumeName: o.volumeName } : {}),
        ...(o.selector !== undefined ? { selector: o.selector } : {}),
      },
    },
  });
}

const getClaim = (name: string): Promise<JsonObject> => c.client.request('GET', `${claims}/${name}`);
const getVolume = (name: string): Promise<JsonObject> => c.client.request('GET', `${volumes}/${name}`);

async function gone(path: string): Promise<boolean> {
  try {
    await c.client.request('GET', path);
    return false;
  } catch {
    return true;
  }
}

/** Waits for the claim to be Bound and returns it. */
function bound(name: string): Promise<JsonObject> {
  return waitFor(`claim ${name} Bound`, async () => {
    const pvc = await getClaim(name);
    return status(pvc)['phase'] === 'Bound' ? pvc : undefined;
  });
}

async function eventsFor(namespace: string, name: string, reason: string): Promise<JsonObject[]> {
  const list = await c.client.request('GET', `/api/v1/namespaces/${namespace}/events`);
  return items(list).filter((e) => {
    const involved = (e['involvedObject'] ?? {}) as JsonObject;
    return involved['name'] === name && e['reason'] === reason;
  });
}

/** A while for the controllers to do something they should not (several resyncs). */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 1200));

test('#7 StorageObjectInUseProtection: claims and volumes get their protection finalizers on create', async () => {
  const pvc = await createClaim('fin', { cls: 'fin' });
  assert.deepEqual(meta(pvc)['finalizers'], ['kubernetes.io/pvc-protection']);
  const pv = await createVolume('fin-pv', { cls: 'fin-none' });
  assert.deepEqual(meta(pv)['finalizers'], ['kubernetes.io/pv-protection']);
  // A new volume becomes Available.
  await waitFor('fin-pv Available', async () => status(await getVolume('fin-pv'))['phase'] === 'Available');
});

test('#7 binder: a Pending claim binds to the smallest matching volume', async () => {
  await createVolume('small-10', { cls: 'smallest', size: '10Gi' });
  await createVolume('small-2', { cls: 'smallest', size: '2Gi' });
  await createVolume('small-3', { cls: 'smallest', size: '3Gi' });
  await createVolume('small-other-class', { cls: 'other', size: '1Gi' });
  await waitFor('volumes Available', async () => status(await getVolume('small-3'))['phase'] === 'Available');
  const created = await createClaim('smallest', { cls: 'smallest', size: '1500Mi' });
  const pvc = await bound('smallest');
  assert.equal(spec(pvc)['volumeName'], 'small-2');
  assert.deepEqual(status(pvc)['capacity'], { storage: '2Gi' });
  assert.deepEqual(status(pvc)['accessModes'], ['ReadWriteOnce']);
  assert.equal(annotationsOf(pvc)['pv.kubernetes.io/bind-completed'], 'yes');
  assert.equal(annotationsOf(pvc)['pv.kubernetes.io/bound-by-controller'], 'yes');
  const pv = await waitFor('small-2 Bound', async () => {
    const v = await getVolume('small-2');
    return status(v)['phase'] === 'Bound' ? v : undefined;
  });
  const ref = spec(pv)['claimRef'] as JsonObject;
  assert.equal(ref['name'], 'smallest');
  assert.equal(ref['namespace'], ns);
  assert.equal(ref['kind'], 'PersistentVolumeClaim');
  assert.equal(ref['uid'], meta(created)['uid']);
  assert.equal(typeof ref['resourceVersion'], 'string');
  assert.equal(annotationsOf(pv)['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.equal(status(await getVolume('small-3'))['phase'], 'Available');
});

test('#7 binder: pre-binding by spec.volumeName and by claimRef is honoured', async () => {
  await createVolume('pre-small', { cls: 'pre', size: '1Gi' });
  await createVolume('pre-wanted', { cls: 'pre', size: '5Gi' });
  await createClaim('pre-by-name', { cls: 'pre', volumeName: 'pre-wanted' });
  const byName = await bound('pre-by-name');
  assert.equal(spec(byName)['volumeName'], 'pre-wanted');
  // The user chose the volume: the claim is not marked bound-by-controller, the volume is.
  assert.equal(annotationsOf(byName)['pv.kubernetes.io/bound-by-controller'], undefined);
  assert.equal(annotationsOf(byName)['pv.kubernetes.io/bind-completed'], 'yes');
  assert.equal(annotationsOf(await getVolume('pre-wanted'))['pv.kubernetes.io/bound-by-controller'], 'yes');

  await createVolume('reserved', {
    cls: 'pre-ref',
    size: '8Gi',
    claimRef: { kind: 'PersistentVolumeClaim', namespace: ns, name: 'pre-by-ref' },
  });
  await createVolume('reserved-free', { cls: 'pre-ref', size: '1Gi' });
  await waitFor(
    'reserved Available',
    async () => status(await getVolume('reserved'))['phase'] === 'Available',
  );
  await createClaim('pre-by-ref', { cls: 'pre-ref' });
  const byRef = await bound('pre-by-ref');
  assert.equal(spec(byRef)['volumeName'], 'reserved');
  // The volume named its claim: not bound by the controller.
  assert.equal(annotationsOf(await getVolume('reserved'))['pv.kubernetes.io/bound-by-controller'], undefined);
  assert.equal(annotationsOf(byRef)['pv.kubernetes.io/bound-by-controller'], 'yes');
});

test('#7 binder: the claim selector picks among volumes by label', async () => {
  await createVolume('sel-silver', { cls: 'sel', size: '1Gi', labels: { tier: 'silver' } });
  await createVolume('sel-gold', { cls: 'sel', size: '4Gi', labels: { tier: 'gold' } });
  await waitFor(
    'sel-gold Available',
    async () => status(await getVolume('sel-gold'))['phase'] === 'Available',
  );
  await createClaim('sel', { cls: 'sel', selector: { matchLabels: { tier: 'gold' } } });
  assert.equal(spec(await bound('sel'))['volumeName'], 'sel-gold');
});

test('#7 binder: no match stays Pending; external provisioning and WaitForFirstConsumer are reported', async () => {
  await createVolume('mismatch-pv', { cls: 'mismatch-a' });
  await waitFor(
    'mismatch-pv Available',
    async () => status(await getVolume('mismatch-pv'))['phase'] === 'Available',
  );
  await createClaim('mismatch', { cls: '' });
  await c.client.request('POST', '/apis/storage.k8s.io/v1/storageclasses', {
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'external' },
      provisioner: 'example.com/nfs',
    },
  });
  await c.client.request('POST', '/apis/storage.k8s.io/v1/storageclasses', {
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'late' },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
  });
  await createVolume('late-pv', { cls: 'late' });
  await createClaim('external', { cls: 'external' });
  await createClaim('late', { cls: 'late' });
  await waitFor(
    'FailedBinding event',
    async () => (await eventsFor(ns, 'mismatch', 'FailedBinding')).length > 0,
  );
  const [ext] = await waitFor('ExternalProvisioning event', async () => {
    const e = await eventsFor(ns, 'external', 'ExternalProvisioning');
    return e.length > 0 ? e : undefined;
  });
  assert.equal(
    ext?.['message'],
    'waiting for a volume to be created, either by external provisioner "example.com/nfs" or manually created by system administrator',
  );
  assert.deepEqual((ext?.['source'] as JsonObject | undefined)?.['component'], 'persistentvolume-controller');
  const externalClaim = await getClaim('external');
  assert.equal(annotationsOf(externalClaim)['volume.kubernetes.io/storage-provisioner'], 'example.com/nfs');
  assert.equal(
    annotationsOf(externalClaim)['volume.beta.kubernetes.io/storage-provisioner'],
    'example.com/nfs',
  );
  const [wait] = await waitFor('WaitForFirstConsumer event', async () => {
    const e = await eventsFor(ns, 'late', 'WaitForFirstConsumer');
    return e.length > 0 ? e : undefined;
  });
  assert.equal(wait?.['message'], 'waiting for first consumer to be created before binding');
  await settle();
  for (const n of ['mismatch', 'external', 'late']) {
    const pvc = await getClaim(n);
    assert.equal(status(pvc)['phase'], 'Pending', n);
    assert.equal(spec(pvc)['volumeName'], undefined, n);
  }
  assert.equal(status(await getVolume('late-pv'))['phase'], 'Available');
});

test('#7 pvc-protection: a claim used by a pod outlives its deletion until the pod is gone', async () => {
  await createVolume('used-pv', { cls: 'used' });
  await createClaim('used', { cls: 'used' });
  await bound('used');
  const pods = `/api/v1/namespaces/${ns}/pods`;
  await c.client.request('POST', pods, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user' },
      spec: {
        nodeName: 'node-1',
        containers: [container('busybox')],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'used' } }],
      },
    },
  });
  // An unscheduled pod does not hold its claim.
  await createVolume('unsched-pv', { cls: 'unsched' });
  await createClaim('unsched', { cls: 'unsched' });
  await bound('unsched');
  await c.client.request('POST', pods, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pending-user' },
      spec: {
        containers: [container('busybox')],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'unsched' } }],
      },
    },
  });
  await c.client.request('DELETE', `${claims}/unsched`);
  await waitFor('unsched claim deleted', () => gone(`${claims}/unsched`));

  await c.client.request('DELETE', `${claims}/used`);
  await settle();
  const kept = await getClaim('used');
  assert.equal(typeof meta(kept)['deletionTimestamp'], 'string');
  assert.deepEqual(meta(kept)['finalizers'], ['kubernetes.io/pvc-protection']);
  await c.client.request('DELETE', `${pods}/user`, {
    body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 },
  });
  await waitFor('used claim deleted', () => gone(`${claims}/used`));
  // Its Retain volume is Released and keeps its claimRef.
  const pv = await waitFor('used-pv Released', async () => {
    const v = await getVolume('used-pv');
    return status(v)['phase'] === 'Released' ? v : undefined;
  });
  assert.equal((spec(pv)['claimRef'] as JsonObject)['name'], 'used');
});

test('#7 pv-protection: a Bound volume outlives its deletion until released', async () => {
  await createVolume('held-pv', { cls: 'held' });
  await createClaim('held', { cls: 'held' });
  await bound('held');
  await waitFor('held-pv Bound', async () => status(await getVolume('held-pv'))['phase'] === 'Bound');
  await c.client.request('DELETE', `${volumes}/held-pv`);
  await settle();
  const kept = await getVolume('held-pv');
  assert.equal(typeof meta(kept)['deletionTimestamp'], 'string');
  assert.deepEqual(meta(kept)['finalizers'], ['kubernetes.io/pv-protection']);
  await c.client.request('DELETE', `${claims}/held`);
  await waitFor('held-pv deleted', () => gone(`${volumes}/held-pv`));
});

test('#7 binder: a Released volume is reclaimed by its policy (Delete, Retain, Recycle)', async () => {
  await createVolume('rec-delete', { cls: 'rec-delete', policy: 'Delete' });
  await createVolume('rec-retain', { cls: 'rec-retain', policy: 'Retain' });
  await createVolume('rec-recycle', { cls: 'rec-recycle', policy: 'Recycle' });
  for (const n of ['rec-delete', 'rec-retain', 'rec-recycle']) await createClaim(n, { cls: n });
  for (const n of ['rec-delete', 'rec-retain', 'rec-recycle']) await bound(n);
  for (const n of ['rec-delete', 'rec-retain', 'rec-recycle'])
    await c.client.request('DELETE', `${claims}/${n}`);
  await waitFor('rec-delete deleted', () => gone(`${volumes}/rec-delete`));
  await waitFor(
    'rec-retain Released',
    async () => status(await getVolume('rec-retain'))['phase'] === 'Released',
  );
  const failed = await waitFor('rec-recycle Failed', async () => {
    const v = await getVolume('rec-recycle');
    return status(v)['phase'] === 'Failed' ? v : undefined;
  });
  assert.equal(status(failed)['message'], 'No recycler plugin found for the volume!');
  await waitFor(
    'VolumeFailedRecycle event',
    async () => (await eventsFor('default', 'rec-recycle', 'VolumeFailedRecycle')).length > 0,
  );
  await settle();
  const retained = await getVolume('rec-retain');
  assert.equal(status(retained)['phase'], 'Released');
  assert.equal((spec(retained)['claimRef'] as JsonObject)['name'], 'rec-retain');
});
