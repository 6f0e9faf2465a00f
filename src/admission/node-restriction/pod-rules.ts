/**
 * NodeRestriction's rules for pods (v1.27): a node creates only mirror pods bound to itself, owned
 * by its Node alone (as controller, without blockOwnerDeletion, with the Node's uid), referencing
 * no service account, secret, config map or claim; it deletes and evicts only pods bound to
 * itself, and updates only the status of such pods, without changing their labels. Other pod
 * subresources are refused.
 */
import { apiErrors } from '../../machinery/errors.js';
import { goQuote } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { stringAt } from './json-fields.js';
import { existingPod, missingObject, refuse } from './node-request.js';
import type { NodeRequest } from './node-request.js';
import {
  referencesClaims,
  referencesConfigMaps,
  referencesSecrets,
  serviceAccountName,
} from './pod-references.js';
import { semanticEqual } from './semantic-equal.js';

/** api.MirrorPodAnnotationKey. */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

export async function admitPod(req: NodeRequest): Promise<void> {
  switch (req.a.subresource) {
    case '':
      return admitPodItself(req);
    case 'status':
      return admitPodStatus(req);
    case 'eviction':
      return admitPodEviction(req);
    default:
      throw refuse(
        req,
        `unexpected pod subresource ${goQuote(req.a.subresource)}, only 'status' and 'eviction' are allowed`,
      );
  }
}

async function admitPodItself(req: NodeRequest): Promise<void> {
  const node = goQuote(req.nodeName);
  switch (req.a.operation) {
    case 'CREATE':
      return admitPodCreate(req);
    case 'DELETE': {
      const pod = await existingPod(req, req.a.namespace, req.a.name);
      if (stringAt(pod, 'spec', 'nodeName') !== req.nodeName) {
        throw refuse(req, `node ${node} can only delete pods with spec.nodeName set to itself`);
      }
      return;
    }
    default:
      throw refuse(
        req,
        `unexpected operation ${goQuote(req.a.operation)}, node ${node} can only create and delete mirror pods`,
      );
  }
}

async function admitPodCreate(req: NodeRequest): Promise<void> {
  const pod = req.a.object;
  if (pod === undefined) throw missingObject(req);
  const node = goQuote(req.nodeName);
  const annotations = pod.metadata.annotations ?? {};
  if (!Object.hasOwn(annotations, mirrorPodAnnotation)) {
    throw refuse(
      req,
      `pod does not have ${goQuote(mirrorPodAnnotation)} annotation, node ${node} can only create mirror pods`,
    );
  }
  if (stringAt(pod, 'spec', 'nodeName') !== req.nodeName) {
    throw refuse(req, `node ${node} can only create pods with spec.nodeName set to itself`);
  }
  await checkMirrorPodOwner(req, pod);
  if (serviceAccountName(pod) !== '') {
    throw refuse(req, `node ${node} can not create pods that reference a service account`);
  }
  if (referencesSecrets(pod)) throw refuse(req, `node ${node} can not create pods that reference secrets`);
  if (referencesConfigMaps(pod)) {
    throw refuse(req, `node ${node} can not create pods that reference configmaps`);
  }
  if (referencesClaims(pod)) {
    throw refuse(req, `node ${node} can not create pods that reference persistentvolumeclaims`);
  }
}

/** Exactly one owner reference: the requesting Node, as controller, not blocking deletion. */
async function checkMirrorPodOwner(req: NodeRequest, pod: KubeObject): Promise<void> {
  const node = goQuote(req.nodeName);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1) {
    throw refuse(req, `node ${node} can only create pods with a single owner reference set to itself`);
  }
  const owner = owners[0];
  if (owner === undefined) {
    throw refuse(req, `node ${node} can only create pods with an owner reference set to itself`);
  }
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== req.nodeName) {
    throw refuse(req, `node ${node} can only create pods with an owner reference set to itself`);
  }
  if (owner['controller'] !== true) {
    throw refuse(req, `node ${node} can only create pods with a controller owner reference set to itself`);
  }
  if (owner['blockOwnerDeletion'] === true) {
    throw refuse(req, `node ${node} must not set blockOwnerDeletion on an owner reference`);
  }
  let stored: KubeObject | undefined;
  try {
    stored = await req.lookup.get({ group: '', resource: 'nodes' }, '', req.nodeName);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw refuse(req, `error looking up node ${req.nodeName} to verify uid: ${message}`);
  }
  if (stored === undefined) throw apiErrors.notFound({ group: '', resource: 'node' }, req.nodeName);
  const uid = stored.metadata.uid ?? '';
  if (owner.uid !== uid) {
    throw refuse(req, `node ${req.nodeName} UID mismatch: expected ${owner.uid} got ${uid}`);
  }
}

function admitPodStatus(req: NodeRequest): void {
  if (req.a.operation !== 'UPDATE') throw refuse(req, `unexpected operation ${goQuote(req.a.operation)}`);
  const oldPod = req.a.oldObject;
  if (oldPod === undefined) throw missingObject(req);
  const node = goQuote(req.nodeName);
  if (stringAt(oldPod, 'spec', 'nodeName') !== req.nodeName) {
    throw refuse(req, `node ${node} can only update pod status for pods with spec.nodeName set to itself`);
  }
  const newPod = req.a.object;
  if (newPod === undefined) throw missingObject(req);
  if (!semanticEqual(oldPod.metadata.labels, newPod.metadata.labels)) {
    throw refuse(req, `node ${node} cannot update labels through pod status`);
  }
}

async function admitPodEviction(req: NodeRequest): Promise<void> {
  if (req.a.operation !== 'CREATE') throw refuse(req, `unexpected operation ${req.a.operation}`);
  const eviction = req.a.object;
  if (eviction === undefined) throw missingObject(req);
  const podName = req.a.name !== '' ? req.a.name : (eviction.metadata.name ?? '');
  if (podName === '') throw refuse(req, 'could not determine pod from request data');
  const pod = await existingPod(req, req.a.namespace, podName);
  if (stringAt(pod, 'spec', 'nodeName') !== req.nodeName) {
    throw refuse(req, `node ${req.nodeName} can only evict pods with spec.nodeName set to itself`);
  }
}
