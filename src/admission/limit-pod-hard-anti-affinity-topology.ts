/**
 * LimitPodHardAntiAffinityTopology (validating, kube-apiserver v1.27; upstream
 * plugin/pkg/admission/antiaffinity): a pod's required (hard) pod anti-affinity terms may only use
 * the `kubernetes.io/hostname` topology key, so one tenant cannot reserve whole zones. Preferred
 * terms are not limited. Creates and updates of pods; subresources are left alone.
 */
import { apiErrors } from '../machinery/errors.js';
import { obj, objArr, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const hostname = 'kubernetes.io/hostname';

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every factory takes the dependencies; this one needs none
export function limitPodHardAntiAffinityTopologyPlugin(_deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'LimitPodHardAntiAffinityTopology',
    operations: createUpdate,
    validate(a) {
      if (a.subresource !== '' || !isResource(a, '', 'pods') || a.object === undefined) return;
      const antiAffinity = obj(obj(obj(a.object, 'spec'), 'affinity'), 'podAntiAffinity');
      for (const term of objArr(antiAffinity, 'requiredDuringSchedulingIgnoredDuringExecution')) {
        const key = str(term, 'topologyKey') ?? '';
        if (key !== hostname) {
          throw apiErrors.forbidden(
            { group: '', resource: 'pods' },
            a.object.metadata.name ?? '',
            `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${hostname} is allowed`,
          );
        }
      }
    },
  };
}
