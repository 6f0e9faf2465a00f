import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import {
  isDeletionCandidate,
  isPodTerminated,
  needToAddFinalizer,
  podPvcKeys,
  podUsesPVC,
  pvcProtectionFinalizer,
  withFinalizer,
  withoutFinalizer,
} from './protection.js';
import { isVolumeInUse } from './pv-protection-controller.js';

const claim = (n: string, extra: JsonObject = {}): JsonObject => ({
  metadata: { name: n, namespace: 'ns', uid: `uid-${n}`, ...extra },
});

function pod(
  o: { node?: string; phase?: string; volumes?: JsonObject[]; meta?: JsonObject } = {},
): JsonObject {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid', ...(o.meta ?? {}) },
    spec: { ...(o.node !== undefined ? { nodeName: o.node } : {}), volumes: o.volumes ?? [] },
    status: { phase: o.phase ?? 'Running' },
  };
}

const pvcVolume = (claimName: string): JsonObject => ({ name: 'v', persistentVolumeClaim: { claimName } });
const ephemeral = (n: string): JsonObject => ({ name: n, ephemeral: { volumeClaimTemplate: { spec: {} } } });

test('#7 protection: finalizer decisions', () => {
  const live = claim('a');
  assert.equal(needToAddFinalizer(live, pvcProtectionFinalizer), true);
  const protectedClaim = withFinalizer(live, pvcProtectionFinalizer);
  assert.deepEqual((protectedClaim['metadata'] as JsonObject)['finalizers'], [pvcProtectionFinalizer]);
  assert.equal(needToAddFinalizer(protectedClaim, pvcProtectionFinalizer), false);
  assert.equal(isDeletionCandidate(protectedClaim, pvcProtectionFinalizer), false);
  const doomed = claim('a', { deletionTimestamp: 't', finalizers: ['x', pvcProtectionFinalizer] });
  assert.equal(isDeletionCandidate(doomed, pvcProtectionFinalizer), true);
  assert.equal(needToAddFinalizer(claim('a', { deletionTimestamp: 't' }), pvcProtectionFinalizer), false);
  assert.deepEqual(
    (withoutFinalizer(doomed, pvcProtectionFinalizer)['metadata'] as JsonObject)['finalizers'],
    ['x'],
  );
  // The original is untouched.
  assert.deepEqual((doomed['metadata'] as JsonObject)['finalizers'], ['x', pvcProtectionFinalizer]);
});

test('#7 protection: a scheduled pod uses the claims its volumes name, whatever its phase', () => {
  const a = claim('a');
  assert.equal(podUsesPVC(pod({ node: 'n', volumes: [pvcVolume('a')] }), a), true);
  assert.equal(podUsesPVC(pod({ node: 'n', volumes: [pvcVolume('b')] }), a), false);
  // Not scheduled: kubelet never saw it.
  assert.equal(podUsesPVC(pod({ volumes: [pvcVolume('a')] }), a), false);
  // Upstream v1.27 does not look at the phase: a finished pod still holds its claim until deleted.
  assert.equal(podUsesPVC(pod({ node: 'n', phase: 'Succeeded', volumes: [pvcVolume('a')] }), a), true);
});

test('#7 protection: generic ephemeral volumes use <pod>-<volume> claims the pod controls', () => {
  const owned = claim('p-scratch', {
    ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'pod-uid', controller: true }],
  });
  const foreign = claim('p-scratch');
  const p = pod({ node: 'n', volumes: [ephemeral('scratch')] });
  assert.equal(podUsesPVC(p, owned), true);
  assert.equal(podUsesPVC(p, foreign), false);
  const shutDown = pod({
    node: 'n',
    volumes: [ephemeral('scratch')],
    meta: { deletionTimestamp: 't', deletionGracePeriodSeconds: 0 },
  });
  assert.equal(podUsesPVC(shutDown, owned), false);
  assert.deepEqual(podPvcKeys(pod({ volumes: [pvcVolume('a'), ephemeral('scratch')] })), [
    'ns/a',
    'ns/p-scratch',
  ]);
});

test('#7 protection: terminated pods (IsPodTerminated)', () => {
  assert.equal(isPodTerminated(pod({ phase: 'Failed' })), true);
  assert.equal(isPodTerminated(pod({ phase: 'Running' })), false);
  const stopping = pod({ meta: { deletionTimestamp: 't' } });
  (stopping['status'] as JsonObject)['containerStatuses'] = [{ name: 'c', state: { running: {} } }];
  assert.equal(isPodTerminated(stopping), false);
  (stopping['status'] as JsonObject)['containerStatuses'] = [{ name: 'c', state: { terminated: {} } }];
  assert.equal(isPodTerminated(stopping), true);
});

test('#7 pv protection: only a Bound volume is in use', () => {
  assert.equal(isVolumeInUse({ status: { phase: 'Bound' } }), true);
  assert.equal(isVolumeInUse({ status: { phase: 'Released' } }), false);
  assert.equal(isVolumeInUse({ status: { phase: 'Available' } }), false);
});
