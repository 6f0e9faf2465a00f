/** `kubectl get limitranges`: NAME, CREATED AT (RFC 3339, UTC). */
import type { TableConvertor } from '../../machinery/table.js';
import { parseTimestamp } from './age.js';
import { column, nameColumn } from './columns.js';
import { formatRfc3339 } from './default.js';
import { stringAt } from './read.js';

export const limitRangeTable: TableConvertor = {
  columns: [nameColumn, column('Created At', 'date', 'When the object was created, in UTC.')],
  cells(obj) {
    return [stringAt(obj, 'metadata', 'name'), formatRfc3339(parseTimestamp(obj.metadata.creationTimestamp))];
  },
};
