/**
 * NodeRestriction (kube-apiserver v1.27's plugin/pkg/admission/noderestriction): a kubelet, the
 * user `system:node:<name>` in the `system:nodes` group, may change only its own Node, mirror
 * pods and the pods bound to it, its Lease, its CSINode, the status of claims, and request tokens
 * only for pods bound to it. Creates, updates and deletes are checked; other users pass untouched.
 *
 * Upstream runs it in the mutating phase (it changes nothing). The chain calls `admit` only for
 * requests that carry an object, so deletes are checked by `validate` instead.
 */
import { goQuote } from '../../machinery/field/errors.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionDependencies } from '../dependencies.js';
import { newForbidden } from '../new-forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { admitCSINode } from './csinode-rule.js';
import { admitLease } from './lease-rule.js';
import { nodeIdentity } from './node-identity.js';
import type { NodeRequest } from './node-request.js';
import { admitNode } from './node-rules.js';
import { admitPod } from './pod-rules.js';
import { admitPersistentVolumeClaim } from './pvc-status-rule.js';
import { admitServiceAccount } from './token-request-rule.js';

export const nodeRestrictionPluginName = 'NodeRestriction';

const rules: Readonly<Record<string, (req: NodeRequest) => Promise<void> | void>> = {
  '/pods': admitPod,
  '/nodes': admitNode,
  '/persistentvolumeclaims': admitPersistentVolumeClaim,
  '/serviceaccounts': admitServiceAccount,
  'coordination.k8s.io/leases': admitLease,
  'storage.k8s.io/csinodes': admitCSINode,
};

/** The check itself, for any request (a node's request to other resources passes). */
export function nodeRestriction(
  deps: Pick<AdmissionDependencies, 'lookup' | 'features'>,
): (a: AdmissionAttributes) => Promise<void> {
  return async (a) => {
    const nodeName = nodeIdentity(a.user);
    if (nodeName === undefined) return;
    if (nodeName === '') throw newForbidden(a, `could not determine node from user ${goQuote(a.user.name)}`);
    const rule = rules[`${a.resource.group}/${a.resource.resource}`];
    if (rule === undefined) return;
    await rule({ a, nodeName, lookup: deps.lookup, features: deps.features });
  };
}

export function nodeRestrictionPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const check = nodeRestriction(deps);
  return {
    name: nodeRestrictionPluginName,
    operations: new Set(['CREATE', 'UPDATE', 'DELETE']),
    admit: check,
    validate: (a) => (a.operation === 'DELETE' ? check(a) : undefined),
  };
}
