/**
 * upstream admission.NewForbidden (k8s.io/apiserver v0.27 pkg/admission/errors.go) to the letter:
 * a 403 naming the request's group/resource WITHOUT its subresource, and the name from the
 * request path, else the object's name, else its generateName (names are generated after
 * mutating admission), else `Unknown`. A Forbidden is passed through unchanged.
 *
 * (errors.ts's `forbidden` appends the subresource and drops the generateName/`Unknown`
 * fallbacks; upstream's integration tests expect e.g. `certificatesigningrequests.certificates.k8s.io
 * "csr" is forbidden: ...` for a `/approval` write.)
 */
import { apiErrors, StatusError } from '../machinery/errors.js';
import type { AdmissionAttributes } from './attributes.js';

/** upstream extractResourceName's name. */
export function upstreamAdmissionName(a: AdmissionAttributes): string {
  if (a.name !== '') return a.name;
  const meta = a.object?.metadata;
  if (meta === undefined) return 'Unknown';
  if (meta.name !== undefined && meta.name !== '') return meta.name;
  if (meta.generateName !== undefined && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}

export function newForbidden(a: AdmissionAttributes, message: string): StatusError {
  const gr = { group: a.resource.group, resource: a.resource.resource };
  return apiErrors.forbidden(gr, upstreamAdmissionName(a), message);
}

/** admission.NewForbidden of an error that may already be a Forbidden ("do not double wrap"). */
export function newForbiddenFrom(a: AdmissionAttributes, err: unknown): StatusError {
  if (err instanceof StatusError && err.code === 403) return err;
  return newForbidden(a, err instanceof Error ? err.message : String(err));
}
