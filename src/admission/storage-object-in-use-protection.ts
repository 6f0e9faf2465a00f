/**
 * StorageObjectInUseProtection (mutating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/storage/storageobjectinuseprotection): every PersistentVolumeClaim created
 * gets the `kubernetes.io/pvc-protection` finalizer and every PersistentVolume the
 * `kubernetes.io/pv-protection` one (unless already there), so the pvc-protection and
 * pv-protection controllers decide when they may go. Creates only; subresources are left alone.
 */
import type { KubeObject } from '../machinery/object.js';
import type { AdmissionPlugin } from './plugin.js';
import { createOnly } from './plugin.js';

export interface StorageAdmissionAttributes {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly resource: { readonly group: string; readonly resource: string };
  readonly subresource: string;
  readonly object: KubeObject;
}

const finalizers: Readonly<Record<string, string>> = {
  persistentvolumeclaims: 'kubernetes.io/pvc-protection',
  persistentvolumes: 'kubernetes.io/pv-protection',
};

export function storageObjectInUseProtection(): (a: StorageAdmissionAttributes) => Promise<void> {
  return (a) => {
    if (a.operation !== 'CREATE' || a.resource.group !== '' || a.subresource !== '') return Promise.resolve();
    const finalizer = finalizers[a.resource.resource];
    if (finalizer === undefined) return Promise.resolve();
    const present = a.object.metadata.finalizers ?? [];
    if (!present.includes(finalizer)) a.object.metadata.finalizers = [...present, finalizer];
    return Promise.resolve();
  };
}

/** StorageObjectInUseProtection as a plugin of the chain (mutating, creates only). */
export function storageObjectInUseProtectionPlugin(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    operations: createOnly,
    admit: storageObjectInUseProtection(),
  };
}
