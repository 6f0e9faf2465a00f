/** `kubectl get networkpolicies`: NAME, POD-SELECTOR, AGE (upstream printNetworkPolicy). */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { stringAt, valueAt } from './read.js';
import { formatLabelSelector } from './selectors.js';

export const networkPolicyTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Pod-Selector', 'string', 'Labels of the pods the policy applies to; empty selects every pod.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      formatLabelSelector(valueAt(obj, 'spec', 'podSelector')),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
