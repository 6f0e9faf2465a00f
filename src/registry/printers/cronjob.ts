/**
 * `kubectl get cronjobs`: NAME, SCHEDULE, SUSPEND, ACTIVE, LAST SCHEDULE, AGE; wide: CONTAINERS,
 * IMAGES, SELECTOR. (v1.27 has no TIMEZONE column; it arrived in v1.30.)
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import {
  ageColumn,
  column,
  containerCells,
  containersColumn,
  imagesColumn,
  nameColumn,
  selectorColumn,
} from './columns.js';
import { arrayAt, optionalBooleanAt, stringAt, valueAt } from './read.js';
import { formatLabelSelector } from './selectors.js';

function boolText(v: boolean | undefined): string {
  if (v === undefined) return '<unset>';
  return v ? 'True' : 'False';
}

export const cronJobTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Schedule', 'string', 'Cron schedule the jobs are created on.'),
    column('Suspend', 'boolean', 'Whether new runs are suspended.'),
    column('Active', 'integer', 'Number of jobs currently running.'),
    column('Last Schedule', 'string', 'Time since a job was last scheduled.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector of the pods of the created jobs.'),
  ],
  cells(obj, now) {
    const jobSpec = valueAt(obj, 'spec', 'jobTemplate', 'spec');
    const [names, images] = containerCells(valueAt(jobSpec, 'template', 'spec'));
    const lastSchedule = valueAt(obj, 'status', 'lastScheduleTime');
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'schedule'),
      boolText(optionalBooleanAt(obj, 'spec', 'suspend')),
      arrayAt(obj, 'status', 'active').length,
      lastSchedule == null ? '<none>' : translateTimestampSince(lastSchedule, now),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(valueAt(jobSpec, 'selector')),
    ];
  },
};
