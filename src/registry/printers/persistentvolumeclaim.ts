/**
 * `kubectl get persistentvolumeclaims`: NAME, STATUS, VOLUME, CAPACITY, ACCESS MODES, STORAGECLASS,
 * AGE; wide: VOLUMEMODE. Capacity and access modes show only once a volume is named.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { accessModesString, storageClass, terminatingOr, volumeModeColumn } from './persistentvolume.js';
import { arrayAt, optionalStringAt, stringAt, valueAt } from './read.js';
import { quantityCell } from './resourcequota.js';

export const persistentVolumeClaimTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Phase of the claim.'),
    column('Volume', 'string', 'Name of the volume bound to the claim.'),
    column('Capacity', 'string', 'Storage capacity of the bound volume.'),
    column('Access Modes', 'string', 'Ways the bound volume can be mounted.'),
    column('StorageClass', 'string', 'Storage class of the claim.'),
    ageColumn,
    volumeModeColumn('Whether the claim asks for a filesystem or a raw block device.'),
  ],
  cells(obj, now) {
    const volumeName = stringAt(obj, 'spec', 'volumeName');
    const bound = volumeName !== '';
    return [
      stringAt(obj, 'metadata', 'name'),
      terminatingOr(obj, stringAt(obj, 'status', 'phase')),
      volumeName,
      bound ? quantityCell(valueAt(obj, 'status', 'capacity', 'storage')) : '',
      bound ? accessModesString(arrayAt(obj, 'status', 'accessModes')) : '',
      storageClass(obj) ?? stringAt(obj, 'spec', 'storageClassName'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      optionalStringAt(obj, 'spec', 'volumeMode') ?? '<unset>',
    ];
  },
};
