/** `kubectl get poddisruptionbudgets`: NAME, MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { numberAt, stringAt, valueAt } from './read.js';

/** An int-or-string as IntOrString.String() prints it, or N/A when unset. */
function intOrStringCell(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return 'N/A';
}

export const podDisruptionBudgetTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'How many selected pods must stay available.'),
    column('Max Unavailable', 'string', 'How many selected pods may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'How many pods may be disrupted now, as last computed.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      intOrStringCell(valueAt(obj, 'spec', 'minAvailable')),
      intOrStringCell(valueAt(obj, 'spec', 'maxUnavailable')),
      numberAt(obj, 'status', 'disruptionsAllowed'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
