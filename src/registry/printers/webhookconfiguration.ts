/**
 * `kubectl get validatingwebhookconfigurations` / `mutatingwebhookconfigurations` (v1.27):
 * NAME, WEBHOOKS, AGE (upstream printValidatingWebhook / printMutatingWebhook).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, stringAt } from './read.js';

export const webhookConfigurationTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Webhooks', 'integer', 'How many webhooks this configuration registers.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      arrayAt(obj, 'webhooks').length,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
