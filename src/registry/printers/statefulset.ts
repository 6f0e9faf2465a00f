/** `kubectl get statefulsets`: NAME, READY, AGE; wide: CONTAINERS, IMAGES. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, containerCells, containersColumn, imagesColumn, nameColumn } from './columns.js';
import { numberAt, stringAt, valueAt } from './read.js';

export const statefulSetTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready pods out of desired replicas.'),
    ageColumn,
    containersColumn,
    imagesColumn,
  ],
  cells(obj, now) {
    const [names, images] = containerCells(valueAt(obj, 'spec', 'template', 'spec'));
    return [
      stringAt(obj, 'metadata', 'name'),
      `${numberAt(obj, 'status', 'readyReplicas')}/${numberAt(obj, 'spec', 'replicas')}`,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      names,
      images,
    ];
  },
};
