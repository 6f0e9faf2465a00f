/** `kubectl get replicasets`: NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
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
import { numberAt, stringAt, valueAt } from './read.js';
import { formatLabelSelector } from './selectors.js';

export const replicaSetTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Number of replicas requested in the spec.'),
    column('Current', 'integer', 'Number of pods the replica set currently has.'),
    column('Ready', 'integer', 'Number of pods that are ready.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector of the pods the replica set manages.'),
  ],
  cells(obj, now) {
    const [names, images] = containerCells(valueAt(obj, 'spec', 'template', 'spec'));
    return [
      stringAt(obj, 'metadata', 'name'),
      numberAt(obj, 'spec', 'replicas'),
      numberAt(obj, 'status', 'replicas'),
      numberAt(obj, 'status', 'readyReplicas'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(valueAt(obj, 'spec', 'selector')),
    ];
  },
};
