/**
 * `kubectl get volumeattachments` (v1.27 printVolumeAttachment): NAME, ATTACHER, PV (empty for an
 * inline volume), NODE, ATTACHED, AGE.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { booleanAt, stringAt } from './read.js';

export const volumeAttachmentTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Attacher', 'string', 'The CSI driver that attaches the volume.', { format: 'name' }),
    column('PV', 'string', 'The persistent volume being attached.'),
    column('Node', 'string', 'The node the volume is attached to.'),
    column('Attached', 'boolean', 'Whether the attach operation succeeded.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'attacher'),
      stringAt(obj, 'spec', 'source', 'persistentVolumeName'),
      stringAt(obj, 'spec', 'nodeName'),
      booleanAt(obj, 'status', 'attached'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
