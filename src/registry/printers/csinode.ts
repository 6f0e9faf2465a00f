/** `kubectl get csinodes` (v1.27 printCSINode): NAME, DRIVERS (how many are registered), AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, stringAt } from './read.js';

export const csiNodeTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      arrayAt(obj, 'spec', 'drivers').length,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
