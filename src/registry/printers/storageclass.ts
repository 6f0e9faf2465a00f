/**
 * `kubectl get storageclasses` (v1.27 printStorageClass): NAME (with " (default)" for a class
 * annotated as the default), PROVISIONER, RECLAIMPOLICY, VOLUMEBINDINGMODE, ALLOWVOLUMEEXPANSION,
 * AGE.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { booleanAt, optionalStringAt, stringAt } from './read.js';

const defaultAnnotations = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

export const storageClassTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', 'The provisioner that creates volumes of this class.'),
    column('ReclaimPolicy', 'string', 'What happens to volumes of this class when their claim is released.'),
    column('VolumeBindingMode', 'string', 'When volumes of this class are provisioned and bound.'),
    // Upstream declares this column a string though its cells are booleans.
    column('AllowVolumeExpansion', 'string', 'Whether volumes of this class may be expanded.'),
    ageColumn,
  ],
  cells(obj, now) {
    let name = stringAt(obj, 'metadata', 'name');
    if (defaultAnnotations.some((a) => optionalStringAt(obj, 'metadata', 'annotations', a) === 'true')) {
      name += ' (default)';
    }
    return [
      name,
      stringAt(obj, 'provisioner'),
      optionalStringAt(obj, 'reclaimPolicy') ?? 'Delete',
      optionalStringAt(obj, 'volumeBindingMode') ?? 'Immediate',
      booleanAt(obj, 'allowVolumeExpansion'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
