/**
 * One request of a node as NodeRestriction's rules see it, and the reads and refusals they share.
 * Refusals are upstream's admission.NewForbidden: the resource without its subresource, e.g.
 * `pods "p" is forbidden: ...` for a `pods/eviction` create.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { ObjectLookup } from '../dependencies.js';
import { newForbidden, newForbiddenFrom } from '../new-forbidden.js';

export interface NodeRequest {
  readonly a: AdmissionAttributes;
  /** The requesting node (never ''). */
  readonly nodeName: string;
  readonly lookup: ObjectLookup;
  readonly features: { enabled(name: string): boolean };
}

export function refuse(req: NodeRequest, message: string): StatusError {
  return newForbidden(req.a, message);
}

/** Upstream's `unexpected type %T` for a request without the object a rule needs. */
export function missingObject(req: NodeRequest): StatusError {
  return refuse(req, 'unexpected type <nil>');
}

/**
 * A stored pod as the pod lister gives it: absent is upstream's lister NotFound (404,
 * `pod "<name>" not found`, passed through); a failed read is a Forbidden.
 */
export async function existingPod(req: NodeRequest, namespace: string, name: string): Promise<KubeObject> {
  let pod: KubeObject | undefined;
  try {
    pod = await req.lookup.get({ group: '', resource: 'pods' }, namespace, name);
  } catch (err) {
    throw newForbiddenFrom(req.a, err);
  }
  if (pod === undefined) throw apiErrors.notFound({ group: '', resource: 'pod' }, name);
  return pod;
}
