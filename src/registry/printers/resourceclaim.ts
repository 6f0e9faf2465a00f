/**
 * `kubectl get resourceclaims`: NAME, RESOURCECLASSNAME, ALLOCATIONMODE, STATE, AGE (upstream
 * printResourceClaim, v1.27).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, objectAt, optionalBooleanAt, stringAt } from './read.js';

export const resourceClassNameColumn = column(
  'ResourceClassName',
  'string',
  'ResourceClassName references the driver and additional parameters via the name of a ResourceClass that was created as part of the driver deployment.',
);
export const allocationModeColumn = column(
  'AllocationMode',
  'string',
  'Allocation can start immediately or when a Pod wants to use the resource. "WaitForFirstConsumer" is the default.',
);

/** upstream resourceClaimState: deleted, pending, allocated, reserved, deallocating, comma-joined. */
export function resourceClaimState(obj: {
  readonly metadata: { readonly deletionTimestamp?: string };
}): string {
  const states: string[] = [];
  const deleted = obj.metadata.deletionTimestamp !== undefined;
  if (deleted) states.push('deleted');
  if (objectAt(obj, 'status', 'allocation') === undefined) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (arrayAt(obj, 'status', 'reservedFor').length > 0) states.push('reserved');
    else if (deleted || optionalBooleanAt(obj, 'status', 'deallocationRequested') === true) {
      states.push('deallocating');
    }
  }
  return states.join(',');
}

export const resourceClaimTable: TableConvertor = {
  columns: [
    nameColumn,
    resourceClassNameColumn,
    allocationModeColumn,
    column('State', 'string', 'A summary of the current state (allocated, pending, reserved, etc.).'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'spec', 'resourceClassName'),
      stringAt(obj, 'spec', 'allocationMode'),
      resourceClaimState(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
