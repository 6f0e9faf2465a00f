import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import {
  accessModesKey,
  findBestMatchForClaim,
  isVolumeBoundToClaim,
  SelectorError,
  volumeUnfitReason,
} from './volume-matching.js';

interface PvOpts {
  readonly size?: string;
  readonly modes?: string[];
  readonly cls?: string;
  readonly labels?: Record<string, string>;
  readonly phase?: string;
  readonly claimRef?: JsonObject;
  readonly mode?: string;
  readonly deleting?: boolean;
}

function pv(n: string, o: PvOpts = {}): JsonObject {
  return {
    metadata: {
      name: n,
      ...(o.labels !== undefined ? { labels: o.labels } : {}),
      ...(o.deleting === true ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: {
      capacity: { storage: o.size ?? '1Gi' },
      accessModes: o.modes ?? ['ReadWriteOnce'],
      ...(o.cls !== undefined ? { storageClassName: o.cls } : {}),
      ...(o.claimRef !== undefined ? { claimRef: o.claimRef } : {}),
      volumeMode: o.mode ?? 'Filesystem',
    },
    status: { phase: o.phase ?? 'Available' },
  };
}

function pvc(
  o: { size?: string; modes?: string[]; cls?: string; selector?: JsonObject; mode?: string } = {},
) {
  return {
    metadata: { name: 'c', namespace: 'ns', uid: 'u1' },
    spec: {
      resources: { requests: { storage: o.size ?? '1Gi' } },
      accessModes: o.modes ?? ['ReadWriteOnce'],
      ...(o.cls !== undefined ? { storageClassName: o.cls } : {}),
      ...(o.selector !== undefined ? { selector: o.selector } : {}),
      volumeMode: o.mode ?? 'Filesystem',
    },
  } satisfies JsonObject;
}

const nameOf = (o: JsonObject | undefined): string | undefined =>
  o === undefined ? undefined : ((o['metadata'] as JsonObject)['name'] as string);

test('#7 binder matching: the smallest volume that covers the request', () => {
  const vols = [pv('big', { size: '10Gi' }), pv('small', { size: '2Gi' }), pv('tiny', { size: '500Mi' })];
  assert.equal(nameOf(findBestMatchForClaim(pvc({ size: '1Gi' }), vols, false)), 'small');
  assert.equal(nameOf(findBestMatchForClaim(pvc({ size: '20Gi' }), vols, false)), undefined);
  assert.equal(nameOf(findBestMatchForClaim(pvc({ size: '2Gi' }), vols, false)), 'small');
});

test('#7 binder matching: storage class, volume mode, phase, claimRef and deletion filter', () => {
  assert.equal(findBestMatchForClaim(pvc({ cls: 'fast' }), [pv('a')], false), undefined);
  assert.equal(nameOf(findBestMatchForClaim(pvc({ cls: 'fast' }), [pv('a', { cls: 'fast' })], false)), 'a');
  // "" and no class are the same: no class.
  assert.equal(nameOf(findBestMatchForClaim(pvc({ cls: '' }), [pv('a')], false)), 'a');
  assert.equal(findBestMatchForClaim(pvc({ mode: 'Block' }), [pv('a')], false), undefined);
  assert.equal(findBestMatchForClaim(pvc(), [pv('a', { phase: 'Released' })], false), undefined);
  assert.equal(findBestMatchForClaim(pvc(), [pv('a', { deleting: true })], false), undefined);
  const other = { kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'other' };
  assert.equal(findBestMatchForClaim(pvc(), [pv('a', { claimRef: other })], false), undefined);
});

test('#7 binder matching: access modes are a superset, fewest modes first', () => {
  const vols = [
    pv('rwx-small', { size: '1Gi', modes: ['ReadWriteOnce', 'ReadWriteMany'] }),
    pv('rwo-big', { size: '5Gi', modes: ['ReadWriteOnce'] }),
  ];
  // The RWO group comes first even though its volume is bigger.
  assert.equal(nameOf(findBestMatchForClaim(pvc(), vols, false)), 'rwo-big');
  assert.equal(nameOf(findBestMatchForClaim(pvc({ modes: ['ReadWriteMany'] }), vols, false)), 'rwx-small');
  assert.equal(findBestMatchForClaim(pvc({ modes: ['ReadOnlyMany'] }), vols, false), undefined);
  assert.equal(accessModesKey(['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteMany']), 'RWO,RWX');
});

test('#7 binder matching: the selector must match the volume labels', () => {
  const vols = [pv('a', { labels: { tier: 'gold' }, size: '5Gi' }), pv('b', { labels: { tier: 'silver' } })];
  const gold = pvc({ selector: { matchLabels: { tier: 'gold' } } });
  assert.equal(nameOf(findBestMatchForClaim(gold, vols, false)), 'a');
  const none = pvc({ selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['bronze'] }] } });
  assert.equal(findBestMatchForClaim(none, vols, false), undefined);
  const bad = pvc({ selector: { matchExpressions: [{ key: 'tier', operator: 'Bogus' }] } });
  assert.throws(() => findBestMatchForClaim(bad, vols, false), SelectorError);
});

test('#7 binder matching: a pre-bound volume wins, even when delaying binding', () => {
  const ref = { kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'c' };
  const vols = [pv('free', { size: '1Gi' }), pv('reserved', { size: '8Gi', claimRef: ref, cls: 'other' })];
  assert.equal(nameOf(findBestMatchForClaim(pvc(), vols, false)), 'reserved');
  assert.equal(nameOf(findBestMatchForClaim(pvc(), vols, true)), 'reserved');
  assert.equal(findBestMatchForClaim(pvc(), [pv('free')], true), undefined);
  // Too small a pre-bound volume is skipped.
  assert.equal(nameOf(findBestMatchForClaim(pvc({ size: '10Gi' }), vols, false)), undefined);
  assert.equal(isVolumeBoundToClaim(pv('x', { claimRef: { ...ref, uid: 'u1' } }), pvc()), true);
  assert.equal(isVolumeBoundToClaim(pv('x', { claimRef: { ...ref, uid: 'u2' } }), pvc()), false);
});

test('#7 binder: why a requested volume does not fit', () => {
  assert.equal(volumeUnfitReason(pv('a'), pvc()), undefined);
  assert.equal(volumeUnfitReason(pv('a', { size: '1Mi' }), pvc()), 'requested PV is too small');
  assert.equal(volumeUnfitReason(pv('a', { cls: 'x' }), pvc()), 'storageClassName does not match');
  assert.equal(volumeUnfitReason(pv('a', { mode: 'Block' }), pvc()), 'incompatible volumeMode');
  assert.equal(volumeUnfitReason(pv('a'), pvc({ modes: ['ReadWriteMany'] })), 'incompatible accessMode');
  assert.equal(
    volumeUnfitReason(pv('a', { deleting: true }), pvc()),
    'the volume is marked for deletion "a"',
  );
});
