/**
 * `kubectl get prioritylevelconfigurations` (v1.27): NAME, TYPE, NOMINALCONCURRENCYSHARES, QUEUES,
 * HANDSIZE, QUEUELENGTHLIMIT, AGE, from the stored flowcontrol v1beta3 object at every served
 * version (upstream prints the internal type, whose field is NominalConcurrencyShares). Limits are
 * `<none>` for an exempt level, the queuing ones also for a level that rejects.
 */
import type { TableConvertor } from '../../machinery/table.js';
import type { JsonValue } from '../../util/json.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { numberAt, objectAt, stringAt } from './read.js';

export const priorityLevelConfigurationTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Type', 'string', 'Whether requests of this level are Exempt from limits or Limited.'),
    column('NominalConcurrencyShares', 'string', "The level's share of the server's concurrency limit."),
    column('Queues', 'string', 'Number of queues of this level.'),
    column('HandSize', 'string', 'Number of queues a flow may be placed in.'),
    column('QueueLengthLimit', 'string', 'Most requests one queue may hold.'),
    ageColumn,
  ],
  cells(obj, now) {
    const limited = objectAt(obj, 'spec', 'limited');
    const queuing = objectAt(limited, 'limitResponse', 'queuing');
    const none = '<none>';
    const limit = (v: unknown, key: string): JsonValue => (v === undefined ? none : numberAt(v, key));
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'type'),
      limit(limited, 'nominalConcurrencyShares'),
      limit(queuing, 'queues'),
      limit(queuing, 'handSize'),
      limit(queuing, 'queueLengthLimit'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
