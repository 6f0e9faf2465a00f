/** `kubectl get secrets`: NAME, TYPE, DATA, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { mapSizeAt, stringAt } from './read.js';

export const secretTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Type', 'string', 'Type of the secret, which determines the expected keys.'),
    column('Data', 'string', 'Number of keys in data.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'type'),
      mapSizeAt(obj, 'data'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
