/**
 * `kubectl get resourcequotas`: NAME, AGE, REQUEST, LIMIT. Each resource of spec.hard (sorted)
 * prints `name: used/hard` from the status; `limits.*` resources go to LIMIT, the rest to REQUEST.
 */
import { canonicalQuantityString, parseQuantityJSON } from '../../machinery/quantity/quantity.js';
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { compareStrings, objectAt, stringAt, valueAt } from './read.js';

/** A quantity cell as Quantity.String() prints it ("0" for a missing one). */
export function quantityCell(v: unknown): string {
  try {
    const q = parseQuantityJSON(v);
    return q === undefined ? '0' : canonicalQuantityString(q);
  } catch {
    return '0';
  }
}

export const resourceQuotaTable: TableConvertor = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'string', 'Used and hard amounts of every resource that is not a limit.'),
    column('Limit', 'string', 'Used and hard amounts of the limits.* resources.'),
  ],
  cells(obj, now) {
    const names = Object.keys(objectAt(obj, 'spec', 'hard') ?? {}).sort(compareStrings);
    const requests: string[] = [];
    const limits: string[] = [];
    for (const name of names) {
      const used = quantityCell(valueAt(obj, 'status', 'used', name));
      const hard = quantityCell(valueAt(obj, 'status', 'hard', name));
      const pieces = name.split('.');
      const target = pieces.length > 1 && pieces[0] === 'limits' ? limits : requests;
      target.push(`${name}: ${used}/${hard}`);
    }
    return [
      stringAt(obj, 'metadata', 'name'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      requests.join(', '),
      limits.join(', '),
    ];
  },
};
