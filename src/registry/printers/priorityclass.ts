/** `kubectl get priorityclasses` (v1.27): NAME, VALUE, GLOBAL-DEFAULT, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { booleanAt, numberAt, stringAt } from './read.js';

export const priorityClassTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Value', 'integer', 'The priority pods of this class get.'),
    column('Global-Default', 'boolean', 'Whether pods without a priority class name get this class.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      numberAt(obj, 'value'),
      booleanAt(obj, 'globalDefault'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
