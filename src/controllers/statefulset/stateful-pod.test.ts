import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import {
  claimOwnerRefs,
  claimsFor,
  computeReplicaStatus,
  newStatefulSetPod,
  parentAndOrdinal,
  startOrdinal,
  wantedClaimOwners,
} from './stateful-pod.js';

const set: JsonObject = {
  metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
  spec: {
    serviceName: 'svc',
    ordinals: { start: 5 },
    selector: { matchLabels: { app: 'web' } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { volumes: [{ name: 'data', emptyDir: {} }, { name: 'x' }] },
    },
  },
};

test('parentAndOrdinal splits at the last dash', () => {
  assert.deepEqual(parentAndOrdinal('my-web-12'), { parent: 'my-web', ordinal: 12 });
  assert.deepEqual(parentAndOrdinal('web'), { parent: '', ordinal: -1 });
  assert.deepEqual(parentAndOrdinal('web-x'), { parent: '', ordinal: -1 });
});

test('startOrdinal honours the StatefulSetStartOrdinal gate', () => {
  assert.equal(startOrdinal(set), 5);
  assert.equal(startOrdinal(set, false), 0);
});

test('newStatefulSetPod: identity, labels, claim volumes first replacing the template volume', () => {
  const spec = (set['spec'] as JsonObject)['template'] as JsonObject;
  const pod = newStatefulSetPod(set, spec, 5, 'web-abc');
  const m = pod['metadata'] as JsonObject;
  assert.equal(m['name'], 'web-5');
  assert.deepEqual(m['labels'], {
    app: 'web',
    'statefulset.kubernetes.io/pod-name': 'web-5',
    'controller-revision-hash': 'web-abc',
  });
  const s = pod['spec'] as JsonObject;
  assert.equal(s['hostname'], 'web-5');
  assert.equal(s['subdomain'], 'svc');
  assert.deepEqual(s['volumes'], [
    { name: 'data', persistentVolumeClaim: { claimName: 'data-web-5' } },
    { name: 'x' },
  ]);
});

test('claimsFor names <template>-<set>-<ordinal> with the selector labels', () => {
  const [c] = claimsFor(set, 7);
  assert.deepEqual(c?.['metadata'], { name: 'data-web-7', namespace: 'ns', labels: { app: 'web' } });
});

test('retention policy owner references (claimOwnerMatchesSetAndPod)', () => {
  assert.deepEqual(wantedClaimOwners({ whenDeleted: 'Retain', whenScaled: 'Retain' }, true), {
    set: false,
    pod: false,
  });
  assert.deepEqual(wantedClaimOwners({ whenDeleted: 'Retain', whenScaled: 'Delete' }, true), {
    set: false,
    pod: true,
  });
  assert.deepEqual(wantedClaimOwners({ whenDeleted: 'Delete', whenScaled: 'Retain' }, true), {
    set: true,
    pod: false,
  });
  assert.deepEqual(wantedClaimOwners({ whenDeleted: 'Delete', whenScaled: 'Delete' }, true), {
    set: false,
    pod: true,
  });
  assert.deepEqual(wantedClaimOwners({ whenDeleted: 'Delete', whenScaled: 'Delete' }, false), {
    set: true,
    pod: false,
  });
  const pod = { metadata: { name: 'web-5', uid: 'p1' } };
  const claim = {
    metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1' }] },
  };
  assert.deepEqual(claimOwnerRefs(claim, set, pod, { set: false, pod: true }), [
    { apiVersion: 'v1', kind: 'Pod', name: 'web-5', uid: 'p1' },
  ]);
  assert.equal(claimOwnerRefs(claim, set, pod, { set: true, pod: false }), undefined);
});

test('computeReplicaStatus counts created, ready, current and updated pods', () => {
  const pod = (rev: string, ready: boolean, phase = 'Running'): JsonObject => ({
    metadata: { labels: { 'controller-revision-hash': rev } },
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
  assert.deepEqual(
    computeReplicaStatus([pod('a', true), pod('b', false), pod('b', false, '')], 0, 'a', 'b', 0),
    {
      replicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
    },
  );
});
