/**
 * The volume controllers: `pvc-protection`, `pv-protection` and
 * `persistentvolume-binder`.
 */
export { PersistentVolumeBinder } from './persistentvolume-binder.js';
export type { PersistentVolumeBinderOptions } from './persistentvolume-binder.js';
export { PvProtectionController } from './pv-protection-controller.js';
export type { PvProtectionControllerOptions } from './pv-protection-controller.js';
export { PvcProtectionController } from './pvc-protection-controller.js';
export type { PvcProtectionControllerOptions } from './pvc-protection-controller.js';
