/**
 * NodeRestriction's rule for coordination.k8s.io Leases (v1.27): a node touches only leases in
 * `kube-node-lease`, and only the one named after itself (on create, the object's name).
 */
import { goQuote } from '../../machinery/field/errors.js';
import { missingObject, refuse } from './node-request.js';
import type { NodeRequest } from './node-request.js';

/** api.NamespaceNodeLease. */
export const nodeLeaseNamespace = 'kube-node-lease';

export function admitLease(req: NodeRequest): void {
  if (req.a.namespace !== nodeLeaseNamespace) {
    throw refuse(req, `can only access leases in the ${goQuote(nodeLeaseNamespace)} system namespace`);
  }
  let name = req.a.name;
  if (req.a.operation === 'CREATE') {
    if (req.a.object === undefined) throw missingObject(req);
    name = req.a.object.metadata.name ?? '';
  }
  if (name !== req.nodeName) {
    throw refuse(req, 'can only access node lease with the same name as the requesting node');
  }
}
