/** `kubectl get jobs`: NAME, COMPLETIONS, DURATION, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
import type { TableConvertor } from '../../machinery/table.js';
import { humanDuration, parseTimestamp, translateTimestampSince } from './age.js';
import {
  ageColumn,
  column,
  containerCells,
  containersColumn,
  imagesColumn,
  nameColumn,
  selectorColumn,
} from './columns.js';
import { numberAt, optionalNumberAt, stringAt, valueAt } from './read.js';
import { formatLabelSelector } from './selectors.js';

/** `succeeded/completions`; without completions `succeeded/1`, plus ` of P` when parallelism > 1. */
export function jobCompletions(job: unknown): string {
  const succeeded = numberAt(job, 'status', 'succeeded');
  const completions = optionalNumberAt(job, 'spec', 'completions');
  if (completions !== undefined) return `${succeeded}/${completions}`;
  const parallelism = numberAt(job, 'spec', 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** Run time: start to completion, or start to now while running; "" before it starts. */
export function jobDuration(job: unknown, now: Date): string {
  const start = parseTimestamp(valueAt(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const completion = parseTimestamp(valueAt(job, 'status', 'completionTime'));
  return humanDuration((completion ?? now.getTime()) - start);
}

export const jobTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Completions', 'string', 'Succeeded pods out of required completions.'),
    column('Duration', 'string', 'How long the job ran, or has been running.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector of the pods the job manages.'),
  ],
  cells(obj, now) {
    const [names, images] = containerCells(valueAt(obj, 'spec', 'template', 'spec'));
    return [
      stringAt(obj, 'metadata', 'name'),
      jobCompletions(obj),
      jobDuration(obj, now),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(valueAt(obj, 'spec', 'selector')),
    ];
  },
};
