/**
 * NodeRestriction's rule for storage.k8s.io CSINodes (v1.27): a node touches only the CSINode
 * named after itself (on create, the object's name).
 */
import { refuse } from './node-request.js';
import type { NodeRequest } from './node-request.js';

export function admitCSINode(req: NodeRequest): void {
  if (req.a.operation === 'CREATE') {
    if (req.a.object === undefined) throw refuse(req, 'unable to access the object name');
    if ((req.a.object.metadata.name ?? '') !== req.nodeName) {
      throw refuse(req, 'can only access CSINode with the same name as the requesting node');
    }
    return;
  }
  if (req.a.name !== req.nodeName) {
    throw refuse(req, 'can only access CSINode with the same name as the requesting node');
  }
}
