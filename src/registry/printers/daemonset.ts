/**
 * `kubectl get daemonsets`: NAME, DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, NODE SELECTOR,
 * AGE; wide: CONTAINERS, IMAGES, SELECTOR.
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
import { numberAt, stringAt, valueAt } from './read.js';
import { formatLabelSelector, formatLabels } from './selectors.js';

export const daemonSetTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Number of nodes that should run the daemon pod.'),
    column('Current', 'integer', 'Number of nodes running at least one daemon pod.'),
    column('Ready', 'integer', 'Number of nodes whose daemon pod is ready.'),
    column('Up-to-date', 'integer', 'Number of nodes running the latest pod template.'),
    column('Available', 'integer', 'Number of nodes whose daemon pod is available.'),
    column('Node Selector', 'string', 'Node labels the pod template requires.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector of the pods the daemon set manages.'),
  ],
  cells(obj, now) {
    const podSpec = valueAt(obj, 'spec', 'template', 'spec');
    const [names, images] = containerCells(podSpec);
    return [
      stringAt(obj, 'metadata', 'name'),
      numberAt(obj, 'status', 'desiredNumberScheduled'),
      numberAt(obj, 'status', 'currentNumberScheduled'),
      numberAt(obj, 'status', 'numberReady'),
      numberAt(obj, 'status', 'updatedNumberScheduled'),
      numberAt(obj, 'status', 'numberAvailable'),
      formatLabels(valueAt(podSpec, 'nodeSelector')),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(valueAt(obj, 'spec', 'selector')),
    ];
  },
};
