/** `kubectl get podtemplates`: NAME, CONTAINERS, IMAGES, POD LABELS (no age, as upstream). */
import type { TableConvertor } from '../../machinery/table.js';
import { column, containerCells, nameColumn } from './columns.js';
import { stringAt, valueAt } from './read.js';
import { formatLabels } from './selectors.js';

export const podTemplateTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Names of the containers in the pod template.'),
    column('Images', 'string', 'Images used by the containers in the pod template.'),
    column('Pod Labels', 'string', 'Labels the pod template gives its pods.'),
  ],
  cells(obj) {
    const [names, images] = containerCells(valueAt(obj, 'template', 'spec'));
    return [
      stringAt(obj, 'metadata', 'name'),
      names,
      images,
      formatLabels(valueAt(obj, 'template', 'metadata', 'labels')),
    ];
  },
};
