/**
 * `kubectl get ipaddresses`: NAME, PARENTREF (upstream printIPAddress). Upstream declares two
 * columns but also appends the age to each row; the extra cell is kept as it sends it.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { column, nameColumn } from './columns.js';
import { objectAt, stringAt } from './read.js';

/** `resource[.group][/namespace]/name` lower-cased, "<none>" without a parent reference. */
export function ipAddressParentRef(obj: unknown): string {
  const ref = objectAt(obj, 'spec', 'parentRef');
  if (ref === undefined) return '<none>';
  const group = stringAt(ref, 'group');
  const resource = stringAt(ref, 'resource');
  let out = (group === '' ? resource : `${resource}.${group}`).toLowerCase();
  const namespace = stringAt(ref, 'namespace');
  if (namespace !== '') out += `/${namespace}`;
  return `${out}/${stringAt(ref, 'name')}`;
}

export const ipAddressTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'ParentRef',
      'string',
      'ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.',
    ),
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      ipAddressParentRef(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
