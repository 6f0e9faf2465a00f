/**
 * DefaultStorageClass (mutating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/storage/storageclass/setdefault): a PersistentVolumeClaim created without a
 * class (neither `spec.storageClassName`, even "", nor the legacy
 * `volume.beta.kubernetes.io/storage-class` annotation) gets the default StorageClass's name. A
 * class is default when its `storageclass.kubernetes.io/is-default-class` or
 * `storageclass.beta.kubernetes.io/is-default-class` annotation is "true"; with several defaults
 * v1.27 takes the newest (then the lowest name) instead of refusing, with none the claim is left
 * as it is. Creates only; subresources are left alone.
 */
import type { KubeObject } from '../machinery/object.js';
import { isJsonObject } from '../util/json.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newestDefaultClass } from './newest-default-class.js';
import { newForbiddenFrom } from './new-forbidden.js';
import { createOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const storageClasses = { group: 'storage.k8s.io', resource: 'storageclasses' };
const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

/** storageutil.IsDefaultAnnotation. */
function isDefaultClass(sc: KubeObject): boolean {
  const ann = sc.metadata.annotations;
  return (
    ann?.['storageclass.kubernetes.io/is-default-class'] === 'true' ||
    ann?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
  );
}

/** helper.PersistentVolumeClaimHasClass. */
function hasClass(pvc: KubeObject): boolean {
  const ann = pvc.metadata.annotations;
  if (ann !== undefined && Object.hasOwn(ann, betaClassAnnotation)) return true;
  const spec = pvc['spec'];
  return isJsonObject(spec) && typeof spec['storageClassName'] === 'string';
}

export function defaultStorageClassPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    operations: createOnly,
    async admit(a) {
      if (!isResource(a, '', 'persistentvolumeclaims') || a.subresource !== '') return;
      if (hasClass(a.object)) return;
      let classes: readonly KubeObject[];
      try {
        classes = await deps.lookup.list(storageClasses, '');
      } catch (err) {
        throw newForbiddenFrom(a, err);
      }
      const chosen = newestDefaultClass(classes, isDefaultClass);
      if (chosen?.metadata.name === undefined) return;
      const spec = isJsonObject(a.object['spec']) ? a.object['spec'] : (a.object['spec'] = {});
      spec['storageClassName'] = chosen.metadata.name;
    },
  };
}
