/** `kubectl get replicasets`: NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
import { replicasTable } from './replicas.js';
import { formatLabelSelector } from './selectors.js';

export const replicaSetTable = replicasTable({
  owner: 'replica set',
  selectorDescription: 'Label selector of the pods the replica set manages.',
  formatSelector: formatLabelSelector,
});
