/** `kubectl get resourceclasses`: NAME, DRIVERNAME, AGE (upstream printResourceClass, v1.27). */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { stringAt } from './read.js';

export const resourceClassTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'DriverName',
      'string',
      'DriverName defines the name of the dynamic resource driver that is used for allocation of a ResourceClaim that uses this class.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'driverName'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
