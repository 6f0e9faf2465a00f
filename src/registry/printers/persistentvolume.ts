/**
 * `kubectl get persistentvolumes`: NAME, CAPACITY, ACCESS MODES, RECLAIM POLICY, STATUS, CLAIM,
 * STORAGECLASS, REASON, AGE; wide: VOLUMEMODE.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, objectAt, optionalStringAt, stringAt, valueAt } from './read.js';
import { quantityCell } from './resourcequota.js';

const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

/** RWO, ROX, RWX, RWOP in that order, each once (upstream GetAccessModesAsString). */
export function accessModesString(modes: readonly unknown[]): string {
  const has = (m: string): boolean => modes.includes(m);
  const out: string[] = [];
  if (has('ReadWriteOnce')) out.push('RWO');
  if (has('ReadOnlyMany')) out.push('ROX');
  if (has('ReadWriteMany')) out.push('RWX');
  if (has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

export function terminatingOr(obj: { metadata: { deletionTimestamp?: unknown } }, phase: string): string {
  const ts = obj.metadata.deletionTimestamp;
  return ts !== undefined && ts !== null ? 'Terminating' : phase;
}

export function storageClass(obj: unknown): string | undefined {
  const ann = objectAt(obj, 'metadata', 'annotations');
  const v = ann?.[betaStorageClassAnnotation];
  return typeof v === 'string' ? v : undefined;
}

export const volumeModeColumn = (description: string): ReturnType<typeof column> =>
  column('VolumeMode', 'string', description, { priority: 1 });

export const persistentVolumeTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Capacity', 'string', 'Storage capacity of the volume.'),
    column('Access Modes', 'string', 'Ways the volume can be mounted.'),
    column('Reclaim Policy', 'string', 'What happens to the volume when its claim is released.'),
    column('Status', 'string', 'Phase of the volume.'),
    column('Claim', 'string', 'Namespace and name of the claim bound to the volume.'),
    column('StorageClass', 'string', 'Storage class of the volume.'),
    column('Reason', 'string', 'Why the volume is in its phase, when failed.'),
    ageColumn,
    volumeModeColumn('Whether the volume is a filesystem or a raw block device.'),
  ],
  cells(obj, now) {
    const claimRef = objectAt(obj, 'spec', 'claimRef');
    const claim =
      claimRef === undefined ? '' : `${stringAt(claimRef, 'namespace')}/${stringAt(claimRef, 'name')}`;
    return [
      stringAt(obj, 'metadata', 'name'),
      quantityCell(valueAt(obj, 'spec', 'capacity', 'storage')),
      accessModesString(arrayAt(obj, 'spec', 'accessModes')),
      stringAt(obj, 'spec', 'persistentVolumeReclaimPolicy'),
      terminatingOr(obj, stringAt(obj, 'status', 'phase')),
      claim,
      storageClass(obj) ?? stringAt(obj, 'spec', 'storageClassName'),
      stringAt(obj, 'status', 'reason'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      optionalStringAt(obj, 'spec', 'volumeMode') ?? '<unset>',
    ];
  },
};
