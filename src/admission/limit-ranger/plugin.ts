/**
 * LimitRanger (mutating and validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/limitranger): the namespace's LimitRanges default a new pod's container
 * requests and limits (defaults.ts), then refuse pods and PersistentVolumeClaims outside their
 * min, max and maxLimitRequestRatio with 403 Forbidden, one LimitRange at a time, the first
 * refusing one naming all its violations (`pods "x" is forbidden: [a, b]`).
 *
 * LimitRanges come from the cached list only: upstream's live list on an empty cache (kept 30 s
 * per namespace) covers an informer that has not caught up, which the watch cache here does not
 * lag behind. A namespace without LimitRanges costs one list lookup per phase.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import { forbidden } from '../errors.js';
import type { AdmissionPlugin } from '../plugin.js';
import { createUpdate } from '../plugin.js';
import { aggregateMessage } from './aggregate.js';
import { defaultContainerResourceRequirements, mergePodResourceRequirements } from './defaults.js';
import { limitedResource } from './handles.js';
import { limitRangeItems } from './limit-range.js';
import { podValidateLimit } from './validate-pod.js';
import { pvcValidateLimit } from './validate-pvc.js';

const limitRanges = { group: '', resource: 'limitranges' };

async function limitRangesOf(
  deps: AdmissionDependencies,
  a: AdmissionAttributes,
): Promise<readonly KubeObject[]> {
  try {
    return await deps.lookup.list(limitRanges, a.namespace);
  } catch {
    const r = a.resource;
    throw forbidden(
      a,
      `unable to ${a.operation} ${r.group}/${r.version}, Resource=${r.resource} at this time because there was an error enforcing limit ranges`,
    );
  }
}

export function limitRangerPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    operations: createUpdate,
    admit: async (a) => {
      // Only pods are defaulted (upstream's MutateLimit does nothing for claims).
      if (limitedResource(a) !== 'pods') return;
      for (const lr of await limitRangesOf(deps, a)) {
        mergePodResourceRequirements(a.object, defaultContainerResourceRequirements(limitRangeItems(lr)));
      }
    },
    validate: async (a) => {
      const resource = limitedResource(a);
      const object = a.object;
      if (resource === undefined || object === undefined) return;
      for (const lr of await limitRangesOf(deps, a)) {
        const items = limitRangeItems(lr);
        const errs = resource === 'pods' ? podValidateLimit(items, object) : pvcValidateLimit(items, object);
        const message = aggregateMessage(errs);
        if (message !== undefined) throw forbidden(a, message);
      }
    },
  };
}
