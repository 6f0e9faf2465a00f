/** `kubectl get replicationcontrollers`: NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
import { replicasTable } from './replicas.js';
import { formatLabels } from './selectors.js';

export const replicationControllerTable = replicasTable({
  owner: 'replication controller',
  selectorDescription: 'Labels of the pods the replication controller manages.',
  formatSelector: formatLabels,
});
