/** The Node authorizer's decisions and upstream's reasons. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserInfo } from '../../machinery/user.js';
import type { AuthorizationAttributes } from '../authorizer.js';
import { nodeAuthorizer, nodeIdentity } from './authorizer.js';
import { NodeGraph } from './node-graph.js';

const node = (name: string): UserInfo => ({
  name: `system:node:${name}`,
  uid: '',
  groups: ['system:nodes', 'system:authenticated'],
  extra: {},
});

function req(
  user: UserInfo,
  verb: string,
  group: string,
  resource: string,
  namespace: string,
  name: string,
  subresource = '',
): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace,
    apiGroup: group,
    apiVersion: 'v1',
    resource,
    subresource,
    name,
  };
}

function graph(): NodeGraph {
  const g = new NodeGraph();
  g.setPod({
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      nodeName: 'n1',
      serviceAccountName: 'runner',
      imagePullSecrets: [{ name: 'pull' }],
      containers: [
        {
          name: 'c',
          env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }],
          envFrom: [{ configMapRef: { name: 'env-cm' } }],
        },
      ],
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: 'claim' } },
        { name: 'cfg', projected: { sources: [{ configMap: { name: 'projected-cm' } }] } },
      ],
    },
  });
  g.setPod({
    metadata: { name: 'pending', namespace: 'ns' },
    spec: { volumes: [{ name: 's', secret: { secretName: 'unbound' } }] },
  });
  g.setClaim({ metadata: { name: 'claim', namespace: 'ns' }, spec: { volumeName: 'pv-1' } });
  g.setAttachment({ metadata: { name: 'va-1' }, spec: { nodeName: 'n1' } });
  return g;
}

test('#12 Node authorizer: a node reads what its pods use, and nothing else', () => {
  const z = nodeAuthorizer(graph());
  const n1 = node('n1');
  const allow = { decision: 'allow', reason: '' };
  const unrelated = {
    decision: 'noOpinion',
    reason: "no relationship found between node 'n1' and this object",
  };
  for (const [resource, name] of [
    ['secrets', 'pull'],
    ['secrets', 'env-secret'],
    ['configmaps', 'env-cm'],
    ['configmaps', 'projected-cm'],
  ] as const) {
    assert.deepEqual(z.authorize(req(n1, 'get', '', resource, 'ns', name)), allow, name);
  }
  assert.deepEqual(z.authorize(req(n1, 'get', '', 'persistentvolumeclaims', 'ns', 'claim')), allow);
  assert.deepEqual(z.authorize(req(n1, 'get', '', 'persistentvolumes', '', 'pv-1')), allow);
  assert.deepEqual(z.authorize(req(n1, 'get', 'storage.k8s.io', 'volumeattachments', '', 'va-1')), allow);
  assert.deepEqual(z.authorize(req(n1, 'create', '', 'serviceaccounts', 'ns', 'runner', 'token')), allow);
  // Another node, another namespace, an unbound pod's secret: no relationship.
  assert.deepEqual(z.authorize(req(node('n2'), 'get', '', 'secrets', 'ns', 'pull')), {
    decision: 'noOpinion',
    reason: "no relationship found between node 'n2' and this object",
  });
  assert.deepEqual(z.authorize(req(n1, 'get', '', 'secrets', 'other', 'pull')), unrelated);
  assert.deepEqual(z.authorize(req(n1, 'get', '', 'secrets', 'ns', 'unbound')), unrelated);
  // Verbs and shapes upstream refuses with a reason.
  assert.deepEqual(z.authorize(req(n1, 'update', '', 'secrets', 'ns', 'pull')), {
    decision: 'noOpinion',
    reason: 'can only read resources of this type',
  });
  assert.deepEqual(z.authorize(req(n1, 'list', '', 'secrets', 'ns', '')), {
    decision: 'noOpinion',
    reason: 'No Object name found',
  });
  assert.deepEqual(z.authorize(req(n1, 'list', '', 'persistentvolumeclaims', 'ns', '')), {
    decision: 'noOpinion',
    reason: 'can only get individual resources of this type',
  });
  assert.deepEqual(z.authorize(req(n1, 'create', '', 'serviceaccounts', 'ns', 'runner')), {
    decision: 'noOpinion',
    reason: 'can only create token subresource of serviceaccount',
  });
});

test('#12 Node authorizer: own Lease and CSINode, the system:node rules, non-nodes untouched', () => {
  const z = nodeAuthorizer(graph());
  const n1 = node('n1');
  assert.equal(
    z.authorize(req(n1, 'update', 'coordination.k8s.io', 'leases', 'kube-node-lease', 'n1')).decision,
    'allow',
  );
  assert.deepEqual(z.authorize(req(n1, 'update', 'coordination.k8s.io', 'leases', 'kube-node-lease', 'n2')), {
    decision: 'noOpinion',
    reason: 'can only access node lease with the same name as the requesting node',
  });
  assert.deepEqual(z.authorize(req(n1, 'get', 'coordination.k8s.io', 'leases', 'default', 'n1')), {
    decision: 'noOpinion',
    reason: 'can only access leases in the "kube-node-lease" system namespace',
  });
  assert.equal(z.authorize(req(n1, 'patch', 'storage.k8s.io', 'csinodes', '', 'n1')).decision, 'allow');
  assert.equal(z.authorize(req(n1, 'patch', 'storage.k8s.io', 'csinodes', '', 'n2')).decision, 'noOpinion');
  // From the bootstrap system:node role: pods, nodes, pod status, events.
  assert.equal(z.authorize(req(n1, 'list', '', 'pods', '', '')).decision, 'allow');
  assert.equal(z.authorize(req(n1, 'patch', '', 'pods', 'ns', 'web', 'status')).decision, 'allow');
  assert.equal(z.authorize(req(n1, 'create', '', 'nodes', '', '')).decision, 'allow');
  assert.equal(z.authorize(req(n1, 'delete', '', 'nodes', '', 'n1')).decision, 'noOpinion');
  assert.equal(z.authorize(req(n1, 'list', 'apps', 'deployments', 'ns', '')).decision, 'noOpinion');
  const notANode: UserInfo = { name: 'system:node:n1', uid: '', groups: ['system:authenticated'], extra: {} };
  assert.equal(nodeIdentity(notANode), undefined);
  assert.deepEqual(z.authorize(req(notANode, 'list', '', 'pods', '', '')), {
    decision: 'noOpinion',
    reason: '',
  });
  assert.deepEqual(z.rulesFor(n1, 'ns'), {
    resourceRules: [],
    nonResourceRules: [],
    incomplete: true,
    evaluationError: 'node authorizer does not support user rule resolution',
  });
});

test('#12 the node graph follows pod deletes and rebinding', () => {
  const g = graph();
  const z = nodeAuthorizer(g);
  g.deletePod('ns', 'web');
  assert.equal(z.authorize(req(node('n1'), 'get', '', 'secrets', 'ns', 'pull')).decision, 'noOpinion');
  g.setPod({
    metadata: { name: 'pending', namespace: 'ns' },
    spec: { nodeName: 'n2', volumes: [{ name: 's', secret: { secretName: 'unbound' } }] },
  });
  assert.equal(z.authorize(req(node('n2'), 'get', '', 'secrets', 'ns', 'unbound')).decision, 'allow');
  g.clear('pods');
  assert.equal(z.authorize(req(node('n2'), 'get', '', 'secrets', 'ns', 'unbound')).decision, 'noOpinion');
});
