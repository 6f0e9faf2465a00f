/**
 * `kubectl get apiservices`: NAME, SERVICE, AVAILABLE, AGE (kube-aggregator's APIService
 * ConvertToTable). SERVICE is `namespace/name` or "Local"; AVAILABLE is the Available condition's
 * status, with its reason when not True, and "Unknown" without the condition.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, objectAt, optionalStringAt, stringAt } from './read.js';

export function apiServiceService(obj: unknown): string {
  const service = objectAt(obj, 'spec', 'service');
  if (service === undefined) return 'Local';
  return `${stringAt(service, 'namespace')}/${stringAt(service, 'name')}`;
}

export function apiServiceAvailable(obj: unknown): string {
  const condition = arrayAt(obj, 'status', 'conditions').find(
    (c) => optionalStringAt(c, 'type') === 'Available',
  );
  if (condition === undefined) return 'Unknown';
  const status = stringAt(condition, 'status');
  const reason = stringAt(condition, 'reason');
  if (status === 'True' || reason === '') return status;
  return `${status} (${reason})`;
}

export const apiServiceTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Service', 'string', 'The service that serves this API, or Local for the API server itself.'),
    column('Available', 'string', 'Whether the API is reachable and served.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      apiServiceService(obj),
      apiServiceAvailable(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
