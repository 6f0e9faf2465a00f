/**
 * Which requests LimitRanger acts on (upstream SupportsAttributes and runLimitFunc): creates
 * and updates of PersistentVolumeClaims and creates of pods (containers cannot change on a pod
 * update), never a subresource, and nothing whose stored object is already being deleted.
 */
import type { AdmissionAttributes } from '../attributes.js';

export type LimitedResource = 'pods' | 'persistentvolumeclaims';

const kinds: Readonly<Record<LimitedResource, string>> = {
  pods: 'Pod',
  persistentvolumeclaims: 'PersistentVolumeClaim',
};

export function limitedResource(a: AdmissionAttributes): LimitedResource | undefined {
  if (a.subresource !== '' || a.resource.group !== '') return undefined;
  if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
  const resource = a.resource.resource;
  if (resource !== 'pods' && resource !== 'persistentvolumeclaims') return undefined;
  if (a.resource.kind !== kinds[resource]) return undefined;
  if (resource === 'pods' && a.operation === 'UPDATE') return undefined;
  if (typeof a.oldObject?.metadata.deletionTimestamp === 'string') return undefined;
  return resource;
}
