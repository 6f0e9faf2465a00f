/** Warnings of PersistentVolumes and claims (upstream pkg/api/persistentvolume{,claim} util). */
import { betaStorageClassAnnotation } from '../../../apis/core/v1/validation/persistentvolume.js';
import { indexedObjs, obj } from '../../../apis/core/v1/access.js';
import type { KubeObject } from '../../../machinery/object.js';

const deprecatedAnnotationMsg = 'deprecated since v1.8; use "storageClassName" attribute instead';

const deprecatedNodeLabels: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region':
    'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone':
    'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type':
    'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

function annotationWarning(o: KubeObject): string[] {
  return o.metadata.annotations?.[betaStorageClassAnnotation] !== undefined
    ? [`metadata.annotations[${betaStorageClassAnnotation}]: ${deprecatedAnnotationMsg}`]
    : [];
}

export function persistentVolumeWarnings(pv: KubeObject): string[] {
  const warnings = annotationWarning(pv);
  const spec = obj(pv, 'spec');
  if (obj(spec, 'photonPersistentDisk') !== undefined) {
    warnings.push('spec.photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+');
  }
  const required = obj(obj(spec, 'nodeAffinity'), 'required');
  for (const [i, term] of indexedObjs(required, 'nodeSelectorTerms')) {
    const base = `spec.nodeAffinity.required.nodeSelectorTerms[${i}]`;
    for (const [j, expr] of indexedObjs(term, 'matchExpressions')) {
      const key = typeof expr['key'] === 'string' ? expr['key'] : '';
      const msg = deprecatedNodeLabels[key];
      if (msg !== undefined) warnings.push(`${base}.matchExpressions[${j}].key: ${key} is ${msg}`);
    }
  }
  return warnings;
}

export function persistentVolumeClaimWarnings(pvc: KubeObject): string[] {
  return annotationWarning(pvc);
}
