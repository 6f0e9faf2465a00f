/**
 * `kubectl get csidrivers` (v1.27 printCSIDriver): NAME, ATTACHREQUIRED, PODINFOONMOUNT,
 * STORAGECAPACITY, TOKENREQUESTS, REQUIRESREPUBLISH, MODES, AGE.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { optionalBooleanAt, stringAt, valueAt } from './read.js';

export const csiDriverTable: TableConvertor = {
  columns: [
    nameColumn,
    column('AttachRequired', 'boolean', 'Whether volumes of this driver must be attached before mounting.'),
    column('PodInfoOnMount', 'boolean', 'Whether the driver receives pod information when mounting.'),
    column('StorageCapacity', 'boolean', 'Whether the scheduler considers published storage capacity.'),
    column('TokenRequests', 'string', 'Audiences of the service account tokens passed to the driver.'),
    column('RequiresRepublish', 'boolean', 'Whether volumes are published again periodically.'),
    column('Modes', 'string', 'The volume lifecycle modes the driver supports.'),
    ageColumn,
  ],
  cells(obj, now) {
    const spec = valueAt(obj, 'spec');
    const modes = valueAt(spec, 'volumeLifecycleModes');
    const modeText = Array.isArray(modes) ? modes.map((m) => (typeof m === 'string' ? m : '')).join(',') : '';
    const requests = valueAt(spec, 'tokenRequests');
    // A nil list prints <unset>; an empty one (not kept by the JSON encoding) would print "".
    const tokenRequests = Array.isArray(requests)
      ? requests.map((r) => stringAt(r, 'audience')).join(',')
      : '<unset>';
    return [
      stringAt(obj, 'metadata', 'name'),
      optionalBooleanAt(spec, 'attachRequired') ?? true,
      optionalBooleanAt(spec, 'podInfoOnMount') ?? false,
      optionalBooleanAt(spec, 'storageCapacity') ?? false,
      tokenRequests,
      optionalBooleanAt(spec, 'requiresRepublish') ?? false,
      modeText === '' ? '<none>' : modeText,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
