/**
 * `kubectl get csistoragecapacities` (v1.27 printCSIStorageCapacity): NAME, STORAGECLASSNAME,
 * CAPACITY (`<unset>` when not reported). Upstream has no AGE column here.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { column, nameColumn } from './columns.js';
import { stringAt, valueAt } from './read.js';

export const csiStorageCapacityTable: TableConvertor = {
  columns: [
    nameColumn,
    column('StorageClassName', 'string', 'The storage class the capacity applies to.'),
    column('Capacity', 'string', 'The capacity the driver reported for this topology and class.'),
  ],
  cells(obj) {
    // Quantities are stored in their canonical form, which is what Quantity.String() prints.
    const capacity = valueAt(obj, 'capacity');
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'storageClassName'),
      typeof capacity === 'string' ? capacity : typeof capacity === 'number' ? String(capacity) : '<unset>',
    ];
  },
};
