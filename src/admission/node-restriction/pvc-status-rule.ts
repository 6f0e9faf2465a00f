/**
 * NodeRestriction's rule for PersistentVolumeClaims (v1.27): a node may only update the status
 * subresource, and there change nothing but `status.capacity` and `status.conditions` (also
 * `status.allocatedResources` and `status.resizeStatus` with RecoverVolumeExpansionFailure on);
 * resourceVersion and managedFields are ignored.
 */
import { goQuote } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { cloneJson, isJsonObject } from '../../util/json.js';
import { missingObject, refuse } from './node-request.js';
import type { NodeRequest } from './node-request.js';
import { semanticDiff } from './semantic-equal.js';

export const recoverVolumeExpansionFailure = 'RecoverVolumeExpansionFailure';

export function admitPersistentVolumeClaim(req: NodeRequest): void {
  if (req.a.subresource !== 'status') throw refuse(req, 'may only update PVC status');
  if (req.a.operation !== 'UPDATE') throw refuse(req, `unexpected operation ${goQuote(req.a.operation)}`);
  const old = req.a.oldObject;
  const object = req.a.object;
  if (old === undefined || object === undefined) throw missingObject(req);
  const ignored = ['capacity', 'conditions'];
  if (req.features.enabled(recoverVolumeExpansionFailure)) ignored.push('resizeStatus', 'allocatedResources');
  const diff = semanticDiff(comparable(old, ignored), comparable(object, ignored));
  if (diff.length > 0) {
    throw refuse(
      req,
      `node ${goQuote(req.nodeName)} is not allowed to update fields other than status.capacity and status.conditions: ${diff.join('\n')}`,
    );
  }
}

/** A copy without resourceVersion, managedFields and the status fields a node may write. */
function comparable(pvc: KubeObject, ignoredStatus: readonly string[]): KubeObject {
  const copy = cloneJson(pvc);
  delete copy.metadata.resourceVersion;
  delete copy.metadata.managedFields;
  const status = copy['status'];
  if (isJsonObject(status)) for (const f of ignoredStatus) delete status[f];
  return copy;
}
