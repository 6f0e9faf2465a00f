/**
 * `kubectl get resourceclaimtemplates`: NAME, RESOURCECLASSNAME, ALLOCATIONMODE, AGE (upstream
 * printResourceClaimTemplate, v1.27).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, nameColumn } from './columns.js';
import { stringAt } from './read.js';
import { allocationModeColumn, resourceClassNameColumn } from './resourceclaim.js';

export const resourceClaimTemplateTable: TableConvertor = {
  columns: [nameColumn, resourceClassNameColumn, allocationModeColumn, ageColumn],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'spec', 'resourceClassName'),
      stringAt(obj, 'spec', 'spec', 'allocationMode'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
