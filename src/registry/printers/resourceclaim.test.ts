import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { podSchedulingContextTable } from './podschedulingcontext.js';
import { resourceClaimState, resourceClaimTable } from './resourceclaim.js';
import { resourceClaimTemplateTable } from './resourceclaimtemplate.js';
import { resourceClassTable } from './resourceclass.js';

const now = new Date('2024-05-01T12:00:00Z');
const obj = (kind: string, rest: JsonObject, meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1alpha2',
  kind,
  metadata: { name: 'x', creationTimestamp: '2024-04-30T12:00:00Z', ...meta },
  ...rest,
});
const spec = { resourceClassName: 'gpu', allocationMode: 'WaitForFirstConsumer' };

test('ResourceClaim: class, mode, STATE summary, age', () => {
  assert.deepEqual(
    resourceClaimTable.columns.map((c) => c.name),
    ['Name', 'ResourceClassName', 'AllocationMode', 'State', 'Age'],
  );
  assert.deepEqual(resourceClaimTable.cells(obj('ResourceClaim', { spec, status: {} }), now), [
    'x',
    'gpu',
    'WaitForFirstConsumer',
    'pending',
    '24h',
  ]);
  const state = (status: JsonObject, meta: Partial<KubeObject['metadata']> = {}): string =>
    resourceClaimState(obj('ResourceClaim', { spec, status }, meta));
  assert.equal(state({ allocation: {} }), 'allocated');
  assert.equal(
    state({ allocation: {}, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] }),
    'allocated,reserved',
  );
  assert.equal(state({ allocation: {}, deallocationRequested: true }), 'allocated,deallocating');
  assert.equal(state({}, { deletionTimestamp: '2024-05-01T00:00:00Z' }), 'deleted');
  assert.equal(
    state({ allocation: {} }, { deletionTimestamp: '2024-05-01T00:00:00Z' }),
    'deleted,allocated,deallocating',
  );
});

test('ResourceClass, ResourceClaimTemplate and PodSchedulingContext rows', () => {
  assert.deepEqual(resourceClassTable.cells(obj('ResourceClass', { driverName: 'gpu.example.com' }), now), [
    'x',
    'gpu.example.com',
    '24h',
  ]);
  assert.deepEqual(
    resourceClaimTemplateTable.columns.map((c) => c.name),
    ['Name', 'ResourceClassName', 'AllocationMode', 'Age'],
  );
  assert.deepEqual(resourceClaimTemplateTable.cells(obj('ResourceClaimTemplate', { spec: { spec } }), now), [
    'x',
    'gpu',
    'WaitForFirstConsumer',
    '24h',
  ]);
  assert.deepEqual(
    podSchedulingContextTable.cells(obj('PodSchedulingContext', { spec: { selectedNode: 'n1' } }), now),
    ['x', 'n1', '24h'],
  );
});
