import assert from 'node:assert/strict';
import { test } from 'node:test';
import { volumeAttachmentTable } from './volumeattachment.js';

test('volumeAttachmentTable: empty PV for inline volumes, attached from status', () => {
  const va = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name: 'va', creationTimestamp: '2024-05-01T11:59:30Z' },
    spec: { attacher: 'csi.x', source: { inlineVolumeSpec: {} }, nodeName: 'n1' },
    status: { attached: true },
  };
  assert.deepEqual(volumeAttachmentTable.cells(va, new Date('2024-05-01T12:00:00Z')), [
    'va',
    'csi.x',
    '',
    'n1',
    true,
    '30s',
  ]);
});
