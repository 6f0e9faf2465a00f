/**
 * DenyServiceExternalIPs (validating, off by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/network/denyserviceexternalips): no Service may gain an external IP. A
 * create with any `spec.externalIPs` is refused, an update only when it adds an address the stored
 * Service did not have (removing some, or keeping them, is allowed so existing users can migrate
 * away). Subresources (status) are left alone.
 */
import type { KubeObject } from '../machinery/object.js';
import { obj, strArr } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const externalIPs = (svc: KubeObject): string[] => strArr(obj(svc, 'spec'), 'externalIPs');

/** Every external IP of the new Service was already on the old one. */
function isSubset(svc: KubeObject, old: KubeObject | undefined): boolean {
  const wanted = externalIPs(svc);
  if (wanted.length === 0) return true;
  if (old === undefined) return false;
  const had = new Set(externalIPs(old));
  return wanted.every((ip) => had.has(ip));
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every factory takes the dependencies; this one needs none
export function denyServiceExternalIPsPlugin(_deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'DenyServiceExternalIPs',
    operations: createUpdate,
    validate(a) {
      if (!isResource(a, '', 'services') || a.subresource !== '' || a.object === undefined) return;
      if (isSubset(a.object, a.oldObject)) return;
      throw newForbidden(a, 'Use of external IPs is denied by admission control');
    },
  };
}
