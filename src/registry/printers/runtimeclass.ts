/** `kubectl get runtimeclasses`: NAME, HANDLER, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { stringAt } from './read.js';

export const runtimeClassTable: TableConvertor = {
  columns: [
    nameColumn,
    // Upstream looks this description up on ObjectMeta, which has no `handler`: it is empty.
    column('Handler', 'string', ''),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'handler'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
