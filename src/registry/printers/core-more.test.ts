import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { limitRangeTable } from './limitrange.js';
import { persistentVolumeTable } from './persistentvolume.js';
import { persistentVolumeClaimTable } from './persistentvolumeclaim.js';
import { podTemplateTable } from './podtemplate.js';
import { replicationControllerTable } from './replicationcontroller.js';
import { resourceQuotaTable } from './resourcequota.js';

const now = new Date('2024-05-01T12:00:00Z');
const meta = { name: 'x', namespace: 'default', creationTimestamp: '2024-04-30T12:00:00Z' };

function o(rest: Record<string, unknown>, metadata: KubeObject['metadata'] = meta): KubeObject {
  return { apiVersion: 'v1', kind: 'X', metadata, ...rest };
}

const names = (t: { columns: readonly { name: string; priority: number }[] }): string[] =>
  t.columns.map((c) => (c.priority === 1 ? `${c.name}*` : c.name));

test('replicationControllerTable: counts, containers, images and the selector map', () => {
  assert.deepEqual(names(replicationControllerTable), [
    'Name',
    'Desired',
    'Current',
    'Ready',
    'Age',
    'Containers*',
    'Images*',
    'Selector*',
  ]);
  const rc = o({
    spec: {
      replicas: 3,
      selector: { b: '2', a: '1' },
      template: {
        spec: {
          containers: [
            { name: 'a', image: 'i1' },
            { name: 'b', image: 'i2' },
          ],
        },
      },
    },
    status: { replicas: 2, readyReplicas: 1 },
  });
  assert.deepEqual(replicationControllerTable.cells(rc, now), [
    'x',
    3,
    2,
    1,
    '24h',
    'a,b',
    'i1,i2',
    'a=1,b=2',
  ]);
});

test('podTemplateTable: no age column, pod labels', () => {
  assert.deepEqual(names(podTemplateTable), ['Name', 'Containers', 'Images', 'Pod Labels']);
  const pt = o({ template: { metadata: {}, spec: { containers: [{ name: 'c', image: 'img' }] } } });
  assert.deepEqual(podTemplateTable.cells(pt, now), ['x', 'c', 'img', '<none>']);
});

test('limitRangeTable: created at in RFC 3339', () => {
  assert.deepEqual(names(limitRangeTable), ['Name', 'Created At']);
  assert.deepEqual(limitRangeTable.cells(o({}), now), ['x', '2024-04-30T12:00:00Z']);
});

test('resourceQuotaTable: sorted resources split into requests and limits', () => {
  assert.deepEqual(names(resourceQuotaTable), ['Name', 'Age', 'Request', 'Limit']);
  const q = o({
    spec: { hard: { pods: '4', 'limits.cpu': '2', 'requests.memory': '1Gi', 'limits.memory': '2Gi' } },
    status: { hard: { pods: '4', 'limits.cpu': '2' }, used: { pods: '1', 'limits.cpu': '500m' } },
  });
  assert.deepEqual(resourceQuotaTable.cells(q, now), [
    'x',
    '24h',
    'pods: 1/4, requests.memory: 0/0',
    'limits.cpu: 500m/2, limits.memory: 0/0',
  ]);
});

test('persistentVolumeTable: modes, claim, class annotation first, terminating, wide volume mode', () => {
  assert.deepEqual(names(persistentVolumeTable), [
    'Name',
    'Capacity',
    'Access Modes',
    'Reclaim Policy',
    'Status',
    'Claim',
    'StorageClass',
    'Reason',
    'Age',
    'VolumeMode*',
  ]);
  const pv = o(
    {
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOncePod', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        claimRef: { namespace: 'ns', name: 'c' },
        storageClassName: 'fast',
      },
      status: { phase: 'Bound' },
    },
    {
      ...meta,
      deletionTimestamp: '2024-05-01T00:00:00Z',
      annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' },
    },
  );
  assert.deepEqual(persistentVolumeTable.cells(pv, now), [
    'x',
    '10Gi',
    'RWO,RWX,RWOP',
    'Delete',
    'Terminating',
    'ns/c',
    'old',
    '',
    '24h',
    '<unset>',
  ]);
});

test('persistentVolumeClaimTable: capacity and modes only once bound to a volume', () => {
  assert.deepEqual(names(persistentVolumeClaimTable), [
    'Name',
    'Status',
    'Volume',
    'Capacity',
    'Access Modes',
    'StorageClass',
    'Age',
    'VolumeMode*',
  ]);
  const pending = o({
    spec: { volumeMode: 'Block' },
    status: { phase: 'Pending', capacity: { storage: '1Gi' } },
  });
  assert.deepEqual(persistentVolumeClaimTable.cells(pending, now), [
    'x',
    'Pending',
    '',
    '',
    '',
    '',
    '24h',
    'Block',
  ]);
  const bound = o({
    spec: { volumeName: 'pv', storageClassName: 'std' },
    status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadOnlyMany'] },
  });
  assert.deepEqual(persistentVolumeClaimTable.cells(bound, now), [
    'x',
    'Bound',
    'pv',
    '1Gi',
    'ROX',
    'std',
    '24h',
    '<unset>',
  ]);
});
