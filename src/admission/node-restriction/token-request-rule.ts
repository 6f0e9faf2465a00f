/**
 * NodeRestriction's rule for ServiceAccounts (v1.27): a node's TokenRequest (create of
 * `serviceaccounts/token`) must be bound to a pod (`v1` `Pod` with a name and a uid) that exists
 * with that uid and is bound to the node. Other service account requests pass.
 */
import { isJsonObject } from '../../util/json.js';
import { stringAt } from './json-fields.js';
import { existingPod, missingObject, refuse } from './node-request.js';
import type { NodeRequest } from './node-request.js';

export async function admitServiceAccount(req: NodeRequest): Promise<void> {
  if (req.a.operation !== 'CREATE' || req.a.subresource !== 'token') return;
  const tokenRequest = req.a.object;
  if (tokenRequest === undefined) throw missingObject(req);
  const spec = tokenRequest['spec'];
  const ref = isJsonObject(spec) ? spec['boundObjectRef'] : undefined;
  if (
    !isJsonObject(ref) ||
    stringAt(ref, 'apiVersion') !== 'v1' ||
    stringAt(ref, 'kind') !== 'Pod' ||
    stringAt(ref, 'name') === ''
  ) {
    throw refuse(req, 'node requested token not bound to a pod');
  }
  const uid = stringAt(ref, 'uid');
  if (uid === '') throw refuse(req, 'node requested token with a pod binding without a uid');
  const pod = await existingPod(req, req.a.namespace, stringAt(ref, 'name'));
  if (uid !== (pod.metadata.uid ?? '')) {
    throw refuse(
      req,
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if (stringAt(pod, 'spec', 'nodeName') !== req.nodeName) {
    throw refuse(req, 'node requested token bound to a pod scheduled on a different node');
  }
}
