import assert from 'node:assert/strict';
import { test } from 'node:test';
import { v127Gates } from '../../../machinery/features.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { csiDrivers } from './csidrivers.js';
import { storageV1Resources } from './index.js';
import { volumeAttachments } from './volumeattachments.js';

const ctx = (gates: Record<string, boolean> = {}): StrategyContext => ({
  namespace: '',
  features: { enabled: (n) => gates[n] ?? true },
});

test('the storage.k8s.io/v1 resources: scope, short names, status, update rules', () => {
  assert.deepEqual(
    storageV1Resources.map((r) => [
      r.info.resource,
      r.info.namespaced,
      r.info.shortNames ?? [],
      r.info.statusSubresource === true,
      r.strategy.allowUnconditionalUpdate,
      r.strategy.allowCreateOnUpdate,
    ]),
    [
      ['csidrivers', false, [], false, false, false],
      ['csinodes', false, [], false, false, false],
      ['csistoragecapacities', true, [], false, false, false],
      ['storageclasses', false, ['sc'], false, true, false],
      ['volumeattachments', false, [], true, false, false],
    ],
  );
});

function driver(spec: JsonObject, generation?: number): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: 'd', ...(generation === undefined ? {} : { generation }) },
    spec,
  };
}

test('CSIDriver: generation moves only with tokenRequests, requiresRepublish, seLinuxMount', () => {
  const s = csiDrivers.strategy;
  const created = driver({ attachRequired: true, requiresRepublish: false, seLinuxMount: false });
  s.prepareForCreate(ctx(), created);
  assert.equal(created.metadata.generation, undefined);
  const capacity = driver({
    attachRequired: true,
    requiresRepublish: false,
    seLinuxMount: false,
    storageCapacity: true,
  });
  s.prepareForUpdate(ctx(), capacity, created);
  assert.equal(capacity.metadata.generation, undefined);
  const republish = driver({ attachRequired: true, requiresRepublish: true, seLinuxMount: false }, 3);
  s.prepareForUpdate(
    ctx(),
    republish,
    driver({ attachRequired: true, requiresRepublish: false, seLinuxMount: false }, 3),
  );
  assert.equal(republish.metadata.generation, 4);
});

test('CSIDriver: seLinuxMount is dropped when its gate is off (once the gate table lists it)', () => {
  const s = csiDrivers.strategy;
  const off = ctx({ SELinuxMountReadWriteOncePod: false });
  const o = driver({ seLinuxMount: true });
  s.prepareForCreate(off, o);
  const listed = Object.hasOwn(v127Gates, 'SELinuxMountReadWriteOncePod');
  assert.deepEqual(o['spec'], listed ? {} : { seLinuxMount: true });
  // Kept on update when already stored.
  const upd = driver({ seLinuxMount: true });
  s.prepareForUpdate(off, upd, driver({ seLinuxMount: false }));
  assert.deepEqual(upd['spec'], { seLinuxMount: true });
});

test('VolumeAttachment: status is reset on create, kept on update; /status keeps spec and metadata', () => {
  const va: KubeObject = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name: 'v' },
    spec: { attacher: 'a', source: { persistentVolumeName: 'p' }, nodeName: 'n' },
    status: { attached: true },
  };
  volumeAttachments.strategy.prepareForCreate(ctx(), va);
  assert.deepEqual(va['status'], { attached: false });
  assert.equal(va.metadata.generation, undefined);
  const upd = cloneJson(va);
  upd['spec'] = { attacher: 'b' };
  upd.metadata.labels = { a: 'b' };
  upd['status'] = { attached: true };
  volumeAttachments.statusStrategy!.prepareForUpdate(ctx(), upd, va);
  assert.deepEqual(upd['spec'], va['spec']);
  assert.equal(upd.metadata.labels, undefined);
  assert.deepEqual(upd['status'], { attached: true });
});
