/**
 * The Node authorizer (upstream plugin/pkg/auth/authorizer/node, `--authorization-mode=Node`):
 * a kubelet, user `system:node:<name>` in group `system:nodes`, may read the secrets, config
 * maps, claims and volumes of pods bound to its node, request tokens for their service
 * accounts, manage its own Lease and CSINode, and otherwise what the bootstrap `system:node`
 * role lists (its own Node, pod status, events…). Anyone else: no opinion. Refusals carry
 * upstream's reasons (`no relationship found between node 'n1' and this object`).
 */
import { bootstrapPolicy } from '../../apis/rbac/v1/bootstrap-policy.js';
import { policyRulesOf, ruleAllows } from '../../apis/rbac/v1/evaluation.js';
import type { PolicyRule } from '../../apis/rbac/v1/evaluation.js';
import type { UserInfo } from '../../machinery/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from '../authorizer.js';
import { noOpinion } from '../authorizer.js';
import type { NodeGraph } from './node-graph.js';

const nodePrefix = 'system:node:';

/** upstream NodeIdentity: the node's name, or undefined when the user is not a node. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(nodePrefix) || !user.groups.includes('system:nodes')) return undefined;
  return user.name.slice(nodePrefix.length);
}

/** The static rules of nodes: the bootstrap `system:node` role's (upstream NodeRules()). */
function nodeRules(): PolicyRule[] {
  const role = bootstrapPolicy().clusterRoles.find((r) => r.metadata.name === 'system:node');
  return policyRulesOf(role?.['rules']);
}

const allow: AuthorizationResult = { decision: 'allow', reason: '' };
const refuse = (reason: string): AuthorizationResult => ({ decision: 'noOpinion', reason });

/** The Node authorizer answers synchronously from memory. */
export interface NodeAuthorizer extends Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult;
  rulesFor(user: UserInfo, namespace: string): UserRules;
}

export function nodeAuthorizer(graph: NodeGraph): NodeAuthorizer {
  const rules = nodeRules();
  const related = (
    node: string,
    kind: Parameters<NodeGraph['related']>[1],
    a: AuthorizationAttributes,
  ): AuthorizationResult => {
    if (a.name === '') return refuse('No Object name found');
    return graph.related(node, kind, a.namespace, a.name)
      ? allow
      : refuse(`no relationship found between node '${node}' and this object`);
  };
  const readNamespaced = (node: string, kind: 'secret' | 'configmap', a: AuthorizationAttributes) => {
    if (!['get', 'list', 'watch'].includes(a.verb)) return refuse('can only read resources of this type');
    if (a.subresource !== '') return refuse('cannot read subresource');
    if (a.namespace === '') return refuse('can only read namespaced object of this type');
    return related(node, kind, a);
  };
  const getOnly = (node: string, kind: 'pvc' | 'pv' | 'volumeattachment', a: AuthorizationAttributes) => {
    if (a.verb !== 'get') return refuse('can only get individual resources of this type');
    if (a.subresource !== '') return refuse('cannot get subresource');
    return related(node, kind, a);
  };
  const ownLease = (node: string, a: AuthorizationAttributes) => {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) {
      return refuse('can only get, create, update, patch, or delete a node lease');
    }
    if (a.namespace !== 'kube-node-lease') {
      return refuse('can only access leases in the "kube-node-lease" system namespace');
    }
    // The name of a create is not known here (NodeRestriction admission checks it upstream).
    if (a.verb !== 'create' && a.name !== node) {
      return refuse('can only access node lease with the same name as the requesting node');
    }
    return allow;
  };
  const ownCSINode = (node: string, a: AuthorizationAttributes) => {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) {
      return refuse('can only get, create, update, patch, or delete a CSINode');
    }
    if (a.subresource !== '') return refuse('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) {
      return refuse('can only access CSINode with the same name as the requesting node');
    }
    return allow;
  };
  return {
    authorize(a: AuthorizationAttributes): AuthorizationResult {
      const node = nodeIdentity(a.user);
      if (node === undefined) return noOpinion;
      if (node === '') return refuse(`unknown node for user "${a.user.name}"`);
      if (a.isResourceRequest) {
        const gr = `${a.apiGroup}/${a.resource}`;
        switch (gr) {
          case '/secrets':
            return readNamespaced(node, 'secret', a);
          case '/configmaps':
            return readNamespaced(node, 'configmap', a);
          case '/persistentvolumeclaims':
            if (a.subresource === 'status') {
              if (a.verb !== 'update' && a.verb !== 'patch')
                return refuse('can only get/update/patch this type');
              return related(node, 'pvc', a);
            }
            return getOnly(node, 'pvc', a);
          case '/persistentvolumes':
            return getOnly(node, 'pv', a);
          case 'storage.k8s.io/volumeattachments':
            return getOnly(node, 'volumeattachment', a);
          case '/serviceaccounts':
            if (a.verb !== 'create' || a.name === '') {
              return refuse('can only create tokens for individual service accounts');
            }
            if (a.subresource !== 'token')
              return refuse('can only create token subresource of serviceaccount');
            return related(node, 'serviceaccount', a);
          case 'coordination.k8s.io/leases':
            return ownLease(node, a);
          case 'storage.k8s.io/csinodes':
            return ownCSINode(node, a);
        }
      }
      return rules.some((r) => ruleAllows(a, r)) ? allow : noOpinion;
    },
    rulesFor(user: UserInfo): UserRules {
      // Nodes' permissions are not fully enumerable (upstream says so with an error).
      return nodeIdentity(user) !== undefined
        ? {
            resourceRules: [],
            nonResourceRules: [],
            incomplete: true,
            evaluationError: 'node authorizer does not support user rule resolution',
          }
        : { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
}
