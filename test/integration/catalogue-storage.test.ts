/**
 * Storage.k8s.io/v1 StorageClass, CSIDriver, CSINode, VolumeAttachment (with /status) and
 * CSIStorageCapacity (v1 only) are served as kube-apiserver v1.27 does: discovery as the reference
 * server's, defaults, validation messages, warnings, generation rules, the status subresource and
 * Table columns.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { storageV1Resources } from '../../src/registry/resources/storage/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const group = 'storage.k8s.io';
const apiVersion = `${group}/v1`;
const base = `/apis/${apiVersion}`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const refFile = join(
  process.cwd(),
  '../shared/reference/kube-apiserver-v1.28.7/default/discovery/apis_storage.k8s.io_v1.json',
);
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
  // Until the composition root serves the group, register it here (the same resources).
  if ((await server.request('GET', base)).status === 404) {
    for (const r of storageV1Resources) server.resources.add(r);
  }
});
after(() => server.stop());

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

interface TableDoc {
  columnDefinitions: Json[];
  rows: { cells: unknown[] }[];
}

async function tableOf(path: string): Promise<TableDoc> {
  const r = await server.request('GET', path, { accept: table });
  assert.equal(r.status, 200, r.text);
  return r.json<TableDoc>();
}

test('discovery entries equal the reference server (no v1beta1 csistoragecapacities)', async (t) => {
  const r = await server.request('GET', base);
  assert.equal(r.status, 200, r.text);
  const got = r.json<{ resources: Json[] }>().resources;
  assert.equal((await server.request('GET', `/apis/${group}/v1beta1`)).status, 404);
  if (!existsSync(refFile)) {
    t.skip(`reference discovery not found at ${refFile}`);
    return;
  }
  const ref = (JSON.parse(readFileSync(refFile, 'utf8')) as { resources: Json[] }).resources;
  assert.deepEqual(got, ref);
});

test('StorageClass: defaults, validation, immutability, warnings, default-class Table', async () => {
  const path = `${base}/storageclasses`;
  const created = await server.request('POST', path, {
    body: {
      apiVersion,
      kind: 'StorageClass',
      metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/fast',
      parameters: { type: 'ssd' },
      allowedTopologies: [
        { matchLabelExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', values: ['a'] }] },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.warnings, [
    'allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  ]);
  const sc = created.json();
  assert.equal(sc['reclaimPolicy'], 'Delete');
  assert.equal(sc['volumeBindingMode'], 'Immediate');
  assert.equal(at(sc, 'metadata', 'generation'), undefined);

  const bad = await server.request('POST', path, {
    body: {
      apiVersion,
      kind: 'StorageClass',
      metadata: { name: 'bad' },
      provisioner: 'Bad_Provisioner!',
      reclaimPolicy: 'Recycle',
      volumeBindingMode: 'Later',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }],
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'StorageClass.storage.k8s.io "bad" is invalid: [provisioner: Invalid value: "bad_provisioner!": ' +
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain", ' +
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer", ' +
      'allowedTopologies[0].matchLabelExpressions[0].values: Required value]',
  );

  const patched = await server.request('PATCH', `${path}/fast`, {
    contentType: mergePatch,
    body: { parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' },
  });
  assert.equal(patched.status, 422, patched.text);
  assert.equal(
    patched.json()['message'],
    'StorageClass.storage.k8s.io "fast" is invalid: [parameters: Forbidden: updates to parameters are forbidden., ' +
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., ' +
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]',
  );
  const expand = await server.request('PATCH', `${path}/fast`, {
    contentType: mergePatch,
    body: { allowVolumeExpansion: true },
  });
  assert.equal(expand.status, 200, expand.text);
  assert.equal(at(expand.json(), 'metadata', 'generation'), undefined);

  const doc = await tableOf(path);
  assert.deepEqual(
    doc.columnDefinitions.map((c) => [c['name'], c['type'], c['priority']]),
    [
      ['Name', 'string', 0],
      ['Provisioner', 'string', 0],
      ['ReclaimPolicy', 'string', 0],
      ['VolumeBindingMode', 'string', 0],
      ['AllowVolumeExpansion', 'string', 0],
      ['Age', 'string', 0],
    ],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 5), [
    'fast (default)',
    'example.com/fast',
    'Delete',
    'Immediate',
    true,
  ]);
  assert.equal((await server.request('DELETE', `${path}/fast`)).status, 200);
});

test('CSIDriver: defaults, immutable fields, generation on mutable changes, Table', async () => {
  const path = `${base}/csidrivers`;
  const created = await server.request('POST', path, {
    body: { apiVersion, kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} },
  });
  assert.equal(created.status, 201, created.text);
  const drv = created.json();
  assert.deepEqual(drv['spec'], {
    attachRequired: true,
    podInfoOnMount: false,
    storageCapacity: false,
    fsGroupPolicy: 'ReadWriteOnceWithFSType',
    volumeLifecycleModes: ['Persistent'],
    requiresRepublish: false,
    seLinuxMount: false,
  });
  assert.equal(at(drv, 'metadata', 'generation'), undefined);

  // storageCapacity is mutable without a generation bump; tokenRequests bump it.
  const cap = await server.request('PATCH', `${path}/csi.example.com`, {
    contentType: mergePatch,
    body: { spec: { storageCapacity: true } },
  });
  assert.equal(cap.status, 200, cap.text);
  assert.equal(at(cap.json(), 'metadata', 'generation'), undefined);
  const tokens = await server.request('PATCH', `${path}/csi.example.com`, {
    contentType: mergePatch,
    body: { spec: { tokenRequests: [{ audience: 'vault', expirationSeconds: 3600 }] } },
  });
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal(at(tokens.json(), 'metadata', 'generation'), 1);

  const immutable = await server.request('PATCH', `${path}/csi.example.com`, {
    contentType: mergePatch,
    body: {
      spec: {
        attachRequired: false,
        volumeLifecycleModes: ['Ephemeral'],
        tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }],
      },
    },
  });
  assert.equal(immutable.status, 422, immutable.text);
  assert.equal(
    immutable.json()['message'],
    'CSIDriver.storage.k8s.io "csi.example.com" is invalid: [' +
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes, ' +
      'spec.tokenRequests[1].audience: Duplicate value: "a", ' +
      'spec.attachedRequired: Invalid value: false: field is immutable, ' +
      'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Ephemeral"}: field is immutable]',
  );
  // Upstream checks tokenRequests twice on update: the message drops repeats, the causes keep them.
  assert.equal(at(immutable.json(), 'details', 'causes', 'length'), 6);

  const doc = await tableOf(path);
  assert.deepEqual(
    doc.columnDefinitions.map((c) => [c['name'], c['type']]),
    [
      ['Name', 'string'],
      ['AttachRequired', 'boolean'],
      ['PodInfoOnMount', 'boolean'],
      ['StorageCapacity', 'boolean'],
      ['TokenRequests', 'string'],
      ['RequiresRepublish', 'boolean'],
      ['Modes', 'string'],
      ['Age', 'string'],
    ],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 7), [
    'csi.example.com',
    true,
    false,
    true,
    'vault',
    false,
    'Persistent',
  ]);
  assert.equal((await server.request('DELETE', `${path}/csi.example.com`)).status, 200);
});

test('CSINode: driver validation, drivers immutable by name, Table', async () => {
  const path = `${base}/csinodes`;
  const bad = await server.request('POST', path, {
    body: {
      apiVersion,
      kind: 'CSINode',
      metadata: { name: 'node-1' },
      spec: { drivers: [{ name: 'csi.example.com', nodeID: '', topologyKeys: ['zone', 'zone'] }] },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'CSINode.storage.k8s.io "node-1" is invalid: [spec.drivers[0].nodeID: Required value, spec.drivers[0]: Duplicate value: "zone"]',
  );
  const created = await server.request('POST', path, {
    body: {
      apiVersion,
      kind: 'CSINode',
      metadata: { name: 'node-1' },
      spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['zone'] }] },
    },
  });
  assert.equal(created.status, 201, created.text);
  const changed = await server.request('PATCH', `${path}/node-1`, {
    contentType: mergePatch,
    body: { spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n2' }] } },
  });
  assert.equal(changed.status, 422, changed.text);
  assert.equal(
    changed.json()['message'],
    'CSINode.storage.k8s.io "node-1" is invalid: CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"csi.example.com", NodeID:"n2", TopologyKeys:[]string(nil), Allocatable:(*storage.VolumeNodeResources)(nil)}: field is immutable',
  );
  const doc = await tableOf(path);
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'Drivers', 'Age'],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 2), ['node-1', 1]);
  assert.equal((await server.request('DELETE', `${path}/node-1`)).status, 200);
});

test('VolumeAttachment: status reset, read-only spec, /status, validation and Table', async () => {
  const path = `${base}/volumeattachments`;
  const body = {
    apiVersion,
    kind: 'VolumeAttachment',
    metadata: { name: 'va-1' },
    spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' },
    status: { attached: true },
  };
  const created = await server.request('POST', path, { body });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json()['status'], { attached: false });

  const bad = await server.request('POST', path, {
    body: {
      ...body,
      metadata: { name: 'va-2' },
      spec: { attacher: 'Bad_Attacher', source: {}, nodeName: 'Node_1' },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'VolumeAttachment.storage.k8s.io "va-2" is invalid: [' +
      'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName, ' +
      `spec.nodeName: Invalid value: "Node_1": ${subdomainMsg}, ` +
      `spec.attacher: Invalid value: "Bad_Attacher": ${subdomainMsg}]`,
  );

  const spec = await server.request('PATCH', `${path}/va-1`, {
    contentType: mergePatch,
    body: { spec: { nodeName: 'node-2' } },
  });
  assert.equal(spec.status, 422, spec.text);
  assert.equal(
    spec.json()['message'],
    'VolumeAttachment.storage.k8s.io "va-1" is invalid: spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:"csi.example.com", Source:storage.VolumeAttachmentSource{PersistentVolumeName:(*string)(0xc000010000), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:"node-2"}: field is immutable',
  );

  const status = await server.request('PATCH', `${path}/va-1/status`, {
    contentType: mergePatch,
    body: {
      metadata: { labels: { via: 'status' } },
      spec: { nodeName: 'node-9' },
      status: { attached: true, attachmentMetadata: { devicePath: '/dev/xvdb' } },
    },
  });
  assert.equal(status.status, 200, status.text);
  assert.equal(at(status.json(), 'spec', 'nodeName'), 'node-1');
  assert.equal(at(status.json(), 'metadata', 'labels'), undefined);
  assert.deepEqual(status.json()['status'], {
    attached: true,
    attachmentMetadata: { devicePath: '/dev/xvdb' },
  });
  const badStatus = await server.request('PATCH', `${path}/va-1/status`, {
    contentType: mergePatch,
    body: { status: { attachError: { message: 'x'.repeat(1025) } } },
  });
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.equal(
    badStatus.json()['message'],
    'VolumeAttachment.storage.k8s.io "va-1" is invalid: status.attachError.message: Too long: must have at most 262144 bytes',
  );
  // Validated twice upstream (ValidateVolumeAttachment inside the update check): two causes.
  assert.equal(at(badStatus.json(), 'details', 'causes', 'length'), 2);
  // The main resource keeps the status.
  const labelled = await server.request('PATCH', `${path}/va-1`, {
    contentType: mergePatch,
    body: { metadata: { labels: { a: 'b' } }, status: { attached: false } },
  });
  assert.equal(labelled.status, 200, labelled.text);
  assert.equal(at(labelled.json(), 'status', 'attached'), true);

  const doc = await tableOf(path);
  assert.deepEqual(
    doc.columnDefinitions.map((c) => [c['name'], c['format']]),
    [
      ['Name', 'name'],
      ['Attacher', 'name'],
      ['PV', ''],
      ['Node', ''],
      ['Attached', ''],
      ['Age', ''],
    ],
  );
  assert.deepEqual(doc.rows[0]?.cells.slice(0, 5), ['va-1', 'csi.example.com', 'pv-1', 'node-1', true]);
  assert.equal((await server.request('DELETE', `${path}/va-1`)).status, 200);
});

test('CSIStorageCapacity: namespaced v1, validation, immutability, warnings, Table without age', async () => {
  const path = `${base}/namespaces/default/csistoragecapacities`;
  const created = await server.request('POST', path, {
    body: {
      apiVersion,
      kind: 'CSIStorageCapacity',
      metadata: { name: 'cap-1' },
      storageClassName: 'fast',
      capacity: '10Gi',
      nodeTopology: { matchLabels: { 'failure-domain.beta.kubernetes.io/zone': 'a' } },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.warnings, [
    'nodeTopology.matchLabels.failure-domain.beta.kubernetes.io/zone: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  ]);
  const bad = await server.request('POST', path, {
    body: {
      apiVersion,
      kind: 'CSIStorageCapacity',
      metadata: { name: 'cap-2' },
      storageClassName: 'Fast',
      capacity: '-1',
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    `CSIStorageCapacity.storage.k8s.io "cap-2" is invalid: [storageClassName: Invalid value: "Fast": ${subdomainMsg}, capacity: Invalid value: "-1": must be greater than or equal to 0]`,
  );
  const changed = await server.request('PATCH', `${path}/cap-1`, {
    contentType: mergePatch,
    body: { storageClassName: 'slow', nodeTopology: { matchLabels: { zone: 'b' } }, capacity: '5Gi' },
  });
  assert.equal(changed.status, 422, changed.text);
  assert.equal(
    changed.json()['message'],
    'CSIStorageCapacity.storage.k8s.io "cap-1" is invalid: [nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"failure-domain.beta.kubernetes.io/zone":"a", "zone":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable, storageClassName: Invalid value: "slow": field is immutable]',
  );
  const resized = await server.request('PATCH', `${path}/cap-1`, {
    contentType: mergePatch,
    body: { capacity: '5Gi' },
  });
  assert.equal(resized.status, 200, resized.text);
  const doc = await tableOf(path);
  assert.deepEqual(
    doc.columnDefinitions.map((c) => c['name']),
    ['Name', 'StorageClassName', 'Capacity'],
  );
  assert.deepEqual(doc.rows[0]?.cells, ['cap-1', 'fast', '5Gi']);
  const list = await server.request('GET', `${base}/csistoragecapacities`);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.json<{ items: Json[] }>().items.length, 1);
  assert.equal((await server.request('DELETE', `${path}/cap-1`)).status, 200);
});
