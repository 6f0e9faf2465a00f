/** The table for kinds without a dedicated printer: name and creation time (RFC 3339, UTC). */
import type { TableConvertor } from '../../machinery/table.js';
import { parseTimestamp } from './age.js';
import { column } from './columns.js';
import { stringAt } from './read.js';

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** Go's time.RFC3339 layout in UTC: whole seconds, `Z` suffix. */
export function formatRfc3339(ms: number | undefined): string {
  if (ms === undefined) return GO_ZERO_TIME;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export const defaultTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name of the object, unique within its namespace.', { format: 'name' }),
    column('Created At', 'date', 'When the object was created, in UTC.'),
  ],
  cells(obj) {
    return [stringAt(obj, 'metadata', 'name'), formatRfc3339(parseTimestamp(obj.metadata.creationTimestamp))];
  },
};
