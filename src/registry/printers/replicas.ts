/**
 * The table of a replicated pod owner (upstream printReplicaSet / printReplicationController):
 * NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. The two kinds differ
 * only in words and in how their selector prints.
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

export function replicasTable(o: {
  /** "replica set", "replication controller". */
  readonly owner: string;
  readonly selectorDescription: string;
  readonly formatSelector: (selector: unknown) => string;
}): TableConvertor {
  return {
    columns: [
      nameColumn,
      column('Desired', 'integer', 'Number of replicas requested in the spec.'),
      column('Current', 'integer', `Number of pods the ${o.owner} currently has.`),
      column('Ready', 'integer', 'Number of pods that are ready.'),
      ageColumn,
      containersColumn,
      imagesColumn,
      selectorColumn(o.selectorDescription),
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
        o.formatSelector(valueAt(obj, 'spec', 'selector')),
      ];
    },
  };
}
