/** `kubectl get replicationcontrollers`: NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
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
import { formatLabels } from './selectors.js';

export const replicationControllerTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Number of replicas requested in the spec.'),
    column('Current', 'integer', 'Number of pods the replication controller currently has.'),
    column('Ready', 'integer', 'Number of pods that are ready.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Labels of the pods the replication controller manages.'),
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
      formatLabels(valueAt(obj, 'spec', 'selector')),
    ];
  },
};
