/**
 * PersistentVolumeClaimResize (validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/storage/persistentvolume/resize): an update that raises a claim's
 * `spec.resources.requests.storage` is refused unless the stored claim is Bound and it was
 * dynamically provisioned by a StorageClass (the same non-empty class before and after, the
 * legacy `volume.beta.kubernetes.io/storage-class` annotation taking precedence over
 * `spec.storageClassName`) whose `allowVolumeExpansion` is true. Shrinking or keeping the size is
 * left to validation. Updates of the claim itself only.
 */
import { parseQuantityJSON, compareQuantity } from '../machinery/quantity/quantity.js';
import type { Quantity } from '../machinery/quantity/quantity.js';
import type { KubeObject } from '../machinery/object.js';
import { obj, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { updateOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const storageClasses = { group: 'storage.k8s.io', resource: 'storageclasses' };
const zero: Quantity = parseQuantityJSON('0')!;

/** requests[storage], or the zero Quantity when absent (or unreadable). */
function requestedStorage(pvc: KubeObject): Quantity {
  const requests = obj(obj(obj(pvc, 'spec'), 'resources'), 'requests');
  try {
    return parseQuantityJSON(requests?.['storage']) ?? zero;
  } catch {
    return zero;
  }
}

/** helper.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function claimClass(pvc: KubeObject): string {
  const ann = pvc.metadata.annotations;
  const beta = ann?.['volume.beta.kubernetes.io/storage-class'];
  if (beta !== undefined) return beta;
  return str(obj(pvc, 'spec'), 'storageClassName') ?? '';
}

export function persistentVolumeClaimResizePlugin(deps: AdmissionDependencies): AdmissionPlugin {
  async function allowResize(pvc: KubeObject, old: KubeObject): Promise<boolean> {
    const cls = claimClass(pvc);
    if (cls === '' || claimClass(old) === '' || cls !== claimClass(old)) return false;
    let sc: KubeObject | undefined;
    try {
      sc = await deps.lookup.get(storageClasses, '', cls);
    } catch {
      return false;
    }
    return sc?.['allowVolumeExpansion'] === true;
  }

  return {
    name: 'PersistentVolumeClaimResize',
    operations: updateOnly,
    async validate(a) {
      if (!isResource(a, '', 'persistentvolumeclaims') || a.subresource !== '') return;
      const pvc = a.object;
      const old = a.oldObject;
      if (pvc === undefined || old === undefined) return;
      if (compareQuantity(requestedStorage(pvc), requestedStorage(old)) <= 0) return;
      if (str(obj(old, 'status'), 'phase') !== 'Bound') {
        throw newForbidden(a, 'Only bound persistent volume claims can be expanded');
      }
      if (!(await allowResize(pvc, old))) {
        throw newForbidden(
          a,
          'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
        );
      }
    },
  };
}
