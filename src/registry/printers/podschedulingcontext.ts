/** `kubectl get podschedulingcontexts`: NAME, SELECTEDNODE, AGE (upstream printPodSchedulingContext, v1.27). */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { stringAt } from './read.js';

export const podSchedulingContextTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'SelectedNode',
      'string',
      'SelectedNode is the node for which allocation of ResourceClaims that are referenced by the Pod and that use "WaitForFirstConsumer" allocation is to be attempted.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'selectedNode'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
