/** `kubectl get leases`: NAME, HOLDER, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { stringAt } from './read.js';

export const leaseTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Holder', 'string', 'Identity of the current holder of the lease.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'holderIdentity'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
