/**
 * `kubectl get flowschemas` (v1.27): NAME, PRIORITYLEVEL, MATCHINGPRECEDENCE, DISTINGUISHERMETHOD,
 * AGE, MISSINGPL, from the stored flowcontrol v1beta3 object (upstream printFlowSchema: the
 * method is `<none>` when unset, MISSINGPL is the status of the Dangling condition, `?` without).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, numberAt, objectAt, stringAt } from './read.js';

export const flowSchemaTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'PriorityLevel',
      'string',
      'The priority level configuration requests of this schema are sent to.',
    ),
    column('MatchingPrecedence', 'string', 'Schemas with lower values are tried first.'),
    column('DistinguisherMethod', 'string', 'How requests of this schema are split into flows.'),
    ageColumn,
    column(
      'MissingPL',
      'string',
      'Whether the referenced priority level configuration is missing or broken.',
    ),
  ],
  cells(obj, now) {
    const method = objectAt(obj, 'spec', 'distinguisherMethod');
    const dangling = arrayAt(obj, 'status', 'conditions').find((c) => stringAt(c, 'type') === 'Dangling');
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'priorityLevelConfiguration', 'name'),
      numberAt(obj, 'spec', 'matchingPrecedence'),
      method === undefined ? '<none>' : stringAt(method, 'type'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      dangling === undefined ? '?' : stringAt(dangling, 'status'),
    ];
  },
};
