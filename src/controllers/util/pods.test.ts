import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { calculateStatus } from '../replicaset/replicaset-controller.js';
import { isPodAvailable, podsToDelete } from './pods.js';

const now = Date.parse('2024-01-01T12:00:00Z');
const ago = (s: number): string => new Date(now - s * 1000).toISOString().replace('.000Z', 'Z');

function pod(
  name: string,
  o: {
    node?: string;
    phase?: string;
    ready?: number;
    created?: number;
    restarts?: number;
    cost?: string;
  } = {},
): JsonObject {
  return {
    metadata: {
      name,
      uid: name,
      creationTimestamp: ago(o.created ?? 1000),
      ...(o.cost !== undefined
        ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': o.cost } }
        : {}),
    },
    spec: { ...(o.node !== undefined ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Running',
      ...(o.ready !== undefined
        ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(o.ready) }] }
        : {}),
      ...(o.restarts !== undefined ? { containerStatuses: [{ restartCount: o.restarts }] } : {}),
    },
  };
}

const names = (ps: JsonObject[]): string[] => ps.map((p) => (p['metadata'] as JsonObject)['name'] as string);

test('ranking: unassigned < assigned, Pending < Unknown < Running, not ready < ready', () => {
  const pods = [
    pod('ready', { node: 'n1', ready: 100 }),
    pod('running', { node: 'n1' }),
    pod('unknown', { node: 'n1', phase: 'Unknown' }),
    pod('pending', { node: 'n1', phase: 'Pending' }),
    pod('unassigned', { phase: 'Pending' }),
  ];
  assert.deepEqual(names(podsToDelete(pods, [], 4, now)), ['unassigned', 'pending', 'unknown', 'running']);
});

test('ranking: deletion cost, doubled-up nodes, ready time, restarts, age (logarithmic)', () => {
  assert.deepEqual(
    names(
      podsToDelete([pod('a', { node: 'n', cost: '10' }), pod('b', { node: 'n', cost: '-5' })], [], 1, now),
    ),
    ['b'],
  );
  // More related pods on the same node go first.
  const related = [pod('x', { node: 'busy' }), pod('y', { node: 'busy' })];
  assert.deepEqual(
    names(podsToDelete([pod('calm', { node: 'calm' }), pod('busy', { node: 'busy' })], related, 1, now)),
    ['busy'],
  );
  // Ready more recently goes first (different log2 buckets).
  assert.deepEqual(
    names(
      podsToDelete(
        [pod('old', { node: 'n', ready: 10_000 }), pod('new', { node: 'n', ready: 10 })],
        [],
        1,
        now,
      ),
    ),
    ['new'],
  );
  assert.deepEqual(
    names(podsToDelete([pod('calm', { node: 'n' }), pod('crashy', { node: 'n', restarts: 3 })], [], 1, now)),
    ['crashy'],
  );
  assert.deepEqual(
    names(
      podsToDelete(
        [pod('old', { node: 'n', created: 100_000 }), pod('young', { node: 'n', created: 5 })],
        [],
        1,
        now,
      ),
    ),
    ['young'],
  );
  // Same log2 bucket: by uid.
  assert.deepEqual(
    names(
      podsToDelete(
        [pod('b', { node: 'n', created: 1000 }), pod('a', { node: 'n', created: 1001 })],
        [],
        1,
        now,
      ),
    ),
    ['a'],
  );
});

test('isPodAvailable: ready for longer than minReadySeconds', () => {
  assert.equal(isPodAvailable(pod('p', { ready: 5 }), 0, now), true);
  assert.equal(isPodAvailable(pod('p', { ready: 5 }), 10, now), false);
  assert.equal(isPodAvailable(pod('p', { ready: 11 }), 10, now), true);
  assert.equal(isPodAvailable(pod('p', { ready: 10 }), 10, now), false);
  assert.equal(isPodAvailable(pod('p'), 0, now), false);
});

test('calculateStatus: counts and the ReplicaFailure condition', () => {
  const rs: JsonObject = {
    metadata: { generation: 2 },
    spec: { replicas: 3, minReadySeconds: 10, template: { metadata: { labels: { app: 'a', v: '1' } } } },
  };
  const pods = [pod('p1', { ready: 100 }), pod('p2', { ready: 1 })];
  (pods[0]!['metadata'] as JsonObject)['labels'] = { app: 'a', v: '1' };
  const s = calculateStatus(rs, pods, new Error('pods "x" is forbidden: exceeded quota'), now);
  assert.equal(s['replicas'], 2);
  assert.equal(s['fullyLabeledReplicas'], 1);
  assert.equal(s['readyReplicas'], 2);
  assert.equal(s['availableReplicas'], 1);
  assert.deepEqual(s['conditions'], [
    {
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: ago(0),
      reason: 'FailedCreate',
      message: 'pods "x" is forbidden: exceeded quota',
    },
  ]);
  const cleared = calculateStatus({ ...rs, status: s }, pods, undefined, now);
  assert.equal(cleared['conditions'], undefined);
});
