/** `kubectl get namespaces`: NAME, STATUS, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { stringAt } from './read.js';

export const namespaceTable: TableConvertor = {
  columns: [nameColumn, column('Status', 'string', 'Lifecycle phase of the namespace.'), ageColumn],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'status', 'phase'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
