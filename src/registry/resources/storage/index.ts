/** Every storage.k8s.io/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { csiDrivers } from './csidrivers.js';
import { csiNodes } from './csinodes.js';
import { csiStorageCapacities } from './csistoragecapacities.js';
import { storageClasses } from './storageclasses.js';
import { volumeAttachments } from './volumeattachments.js';

export const storageV1Resources: readonly RegistryResource[] = [
  csiDrivers,
  csiNodes,
  csiStorageCapacities,
  storageClasses,
  volumeAttachments,
];
