/**
 * What an admission plugin sees of one request: the shared attributes type
 * (machinery/admission-attributes.ts) and a helper over it.
 */
import type { AdmissionAttributes } from '../machinery/admission-attributes.js';

export type {
  AdmissionAttributes,
  AdmissionOperation,
  AdmissionResource,
  ObjectAttributes,
} from '../machinery/admission-attributes.js';

/** group/resource of the attributes, e.g. `pods` or `apps/deployments`. */
export function isResource(a: AdmissionAttributes, group: string, resource: string): boolean {
  return a.resource.group === group && a.resource.resource === resource;
}
