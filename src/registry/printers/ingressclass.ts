/** `kubectl get ingressclasses`: NAME, CONTROLLER, PARAMETERS, AGE (upstream printIngressClass). */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { objectAt, optionalStringAt, stringAt } from './read.js';

/** `Kind[.apiGroup]/name` of the parameters reference, "<none>" without one. */
export function ingressClassParameters(obj: unknown): string {
  const params = objectAt(obj, 'spec', 'parameters');
  if (params === undefined) return '<none>';
  const group = optionalStringAt(params, 'apiGroup');
  const kind = stringAt(params, 'kind');
  return `${group === undefined ? kind : `${kind}.${group}`}/${stringAt(params, 'name')}`;
}

export const ingressClassTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Name of the controller that implements this class.'),
    column('Parameters', 'string', 'Resource holding further configuration for the controller.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'controller'),
      ingressClassParameters(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
