import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { csiDriverTable } from './csidriver.js';

test('csiDriverTable: token audiences, <unset>, modes or <none>', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  const d = (spec: JsonObject) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: 'csi.x', creationTimestamp: '2024-05-01T11:00:00Z' },
    spec,
  });
  assert.deepEqual(csiDriverTable.cells(d({}), now), [
    'csi.x',
    true,
    false,
    false,
    '<unset>',
    false,
    '<none>',
    '60m',
  ]);
  assert.deepEqual(
    csiDriverTable.cells(
      d({
        attachRequired: false,
        podInfoOnMount: true,
        storageCapacity: true,
        tokenRequests: [{ audience: 'a' }, { audience: '' }],
        requiresRepublish: true,
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
      }),
      now,
    ),
    ['csi.x', false, true, true, 'a,', true, 'Persistent,Ephemeral', '60m'],
  );
});
