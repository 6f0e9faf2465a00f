/** `kubectl get configmaps`: NAME, DATA, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { mapSizeAt, stringAt } from './read.js';

export const configMapTable: TableConvertor = {
  columns: [nameColumn, column('Data', 'string', 'Number of keys in data and binaryData.'), ageColumn],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      mapSizeAt(obj, 'data') + mapSizeAt(obj, 'binaryData'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
