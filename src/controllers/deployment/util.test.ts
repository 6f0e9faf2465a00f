import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import {
  equalIgnoreHash,
  goRound,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  proportion,
  resolveFenceposts,
  scaledValue,
  setNewReplicaSetAnnotations,
} from './util.js';

function d(replicas: number, ru: JsonObject | undefined, type = 'RollingUpdate'): JsonObject {
  return {
    metadata: {
      name: 'd',
      annotations: { team: 'a', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
    },
    spec: { replicas, strategy: { type, ...(ru !== undefined ? { rollingUpdate: ru } : {}) } },
    status: { replicas },
  };
}

test('percentages: surge rounds up, unavailable down; both zero makes unavailable 1', () => {
  assert.equal(scaledValue('25%', 3, true), 1);
  assert.equal(scaledValue('25%', 3, false), 0);
  assert.equal(scaledValue('50%', 5, true), 3);
  assert.equal(scaledValue(2, 100, true), 2);
  assert.throws(() => scaledValue('25', 3, true));
  assert.deepEqual(resolveFenceposts('25%', '25%', 3), { surge: 1, unavailable: 0 });
  assert.deepEqual(resolveFenceposts(0, '10%', 5), { surge: 0, unavailable: 1 });
  assert.equal(maxSurge(d(10, { maxSurge: '25%', maxUnavailable: '25%' })), 3);
  assert.equal(maxUnavailable(d(10, { maxSurge: '25%', maxUnavailable: '25%' })), 2);
  assert.equal(maxUnavailable(d(2, { maxSurge: 0, maxUnavailable: 5 })), 2);
  assert.equal(maxSurge(d(10, undefined, 'Recreate')), 0);
  assert.equal(maxUnavailable(d(0, { maxSurge: 1, maxUnavailable: 1 })), 0);
});

test('goRound rounds halves away from zero', () => {
  assert.equal(goRound(2.5), 3);
  assert.equal(goRound(-2.5), -3);
  assert.equal(goRound(-2.4), -2);
});

test('NewRSNewReplicas: bounded by replicas + maxSurge and by replicas', () => {
  const dep = d(4, { maxSurge: 1, maxUnavailable: 1 });
  const old: JsonObject = { spec: { replicas: 4 } };
  const fresh: JsonObject = { spec: { replicas: 0 } };
  assert.equal(newRSNewReplicas(dep, [old, fresh], fresh), 1);
  assert.equal(
    newRSNewReplicas(dep, [{ spec: { replicas: 1 } }, { spec: { replicas: 3 } }], { spec: { replicas: 3 } }),
    4,
  );
  assert.equal(newRSNewReplicas(d(4, undefined, 'Recreate'), [old, fresh], fresh), 4);
});

test('GetProportion: share of the added replicas by the max-replicas annotation', () => {
  const dep = d(20, { maxSurge: 3, maxUnavailable: 0 });
  const rs = (replicas: number): JsonObject => ({
    metadata: { annotations: { 'deployment.kubernetes.io/max-replicas': '13' } },
    spec: { replicas },
  });
  // 10 * 23 / 13 = 17.69 → 18: +8; 3 * 23 / 13 = 5.3 → 5: +2.
  assert.equal(proportion(rs(10), dep, 10, 0), 8);
  assert.equal(proportion(rs(3), dep, 10, 8), 2);
  assert.equal(proportion(rs(0), dep, 10, 0), 0);
  // Scaling to zero removes the whole size.
  assert.equal(proportion(rs(3), d(0, { maxSurge: 1, maxUnavailable: 0 }), -13, 0), -3);
});

test('SetNewReplicaSetAnnotations: copies annotations, bumps the revision, keeps the history', () => {
  const dep = d(3, { maxSurge: '25%', maxUnavailable: '25%' });
  const rs: JsonObject = { metadata: {}, spec: { replicas: 0 } };
  assert.equal(setNewReplicaSetAnnotations(dep, rs, '1', false), true);
  assert.deepEqual((rs['metadata'] as JsonObject)['annotations'], {
    team: 'a',
    'deployment.kubernetes.io/revision': '1',
    'deployment.kubernetes.io/desired-replicas': '3',
    'deployment.kubernetes.io/max-replicas': '4',
  });
  assert.equal(setNewReplicaSetAnnotations(dep, rs, '1', true), false);
  // Rolled back to: revision 1 becomes 4, history remembers 1.
  assert.equal(setNewReplicaSetAnnotations(dep, rs, '4', true), true);
  const a = (rs['metadata'] as JsonObject)['annotations'] as JsonObject;
  assert.equal(a['deployment.kubernetes.io/revision'], '4');
  assert.equal(a['deployment.kubernetes.io/revision-history'], '1');
  setNewReplicaSetAnnotations(dep, rs, '6', true);
  assert.equal(a['deployment.kubernetes.io/revision-history'], '1,4');
  // The history is cut from the front to stay within the limit.
  setNewReplicaSetAnnotations(dep, rs, '7', true, 4);
  assert.equal(a['deployment.kubernetes.io/revision-history'], '4,6');
});

test('EqualIgnoreHash ignores the pod-template-hash label and empty collections', () => {
  const t = (labels: JsonObject, extra: JsonObject = {}): JsonObject => ({
    metadata: { labels },
    spec: { containers: [{ name: 'a', image: 'x', ...extra }] },
  });
  assert.equal(equalIgnoreHash(t({ app: 'a', 'pod-template-hash': 'abc' }), t({ app: 'a' })), true);
  assert.equal(equalIgnoreHash(t({ app: 'a' }, { args: [] }), t({ app: 'a' })), true);
  assert.equal(equalIgnoreHash(t({ app: 'a' }), t({ app: 'b' })), false);
  assert.equal(equalIgnoreHash(t({ app: 'a' }, { image: 'y' }), t({ app: 'a' })), false);
});
