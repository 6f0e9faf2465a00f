/**
 * A plugin's refusal as upstream's admission.NewForbidden (see new-forbidden.ts): 403 naming the
 * group/resource (without the subresource) and the object's name, else its generateName, else
 * `Unknown`; a Forbidden passes through unchanged.
 */
export { newForbidden as forbidden, newForbiddenFrom as asForbidden } from './new-forbidden.js';
export { upstreamAdmissionName as admissionName } from './new-forbidden.js';
