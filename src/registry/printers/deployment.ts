/** `kubectl get deployments`: NAME, READY, UP-TO-DATE, AVAILABLE, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
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
import { labelSelectorString } from './selectors.js';

export const deploymentTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready pods out of desired replicas.'),
    column('Up-to-date', 'string', 'Pods running the latest pod template.'),
    column('Available', 'string', 'Pods ready for at least minReadySeconds.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector of the pods the deployment manages.'),
  ],
  cells(obj, now) {
    const [names, images] = containerCells(valueAt(obj, 'spec', 'template', 'spec'));
    // Unlike the other workloads, an empty selector prints as "" and an invalid one as "<invalid>".
    const selector = labelSelectorString(valueAt(obj, 'spec', 'selector')) ?? '<invalid>';
    return [
      stringAt(obj, 'metadata', 'name'),
      `${numberAt(obj, 'status', 'readyReplicas')}/${numberAt(obj, 'spec', 'replicas')}`,
      numberAt(obj, 'status', 'updatedReplicas'),
      numberAt(obj, 'status', 'availableReplicas'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      names,
      images,
      selector,
    ];
  },
};
