/** `kubectl get serviceaccounts`: NAME, SECRETS, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, stringAt } from './read.js';

export const serviceAccountTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Secrets', 'string', 'Number of secrets listed for the service account.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      arrayAt(obj, 'secrets').length,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
