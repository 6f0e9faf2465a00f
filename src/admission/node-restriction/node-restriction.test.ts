import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import { attrsOf, runPlugin, statusOf, testDeps, testUser } from '../testing/fake-admission-deps.js';
import type { AttrsInput } from '../testing/fake-admission-deps.js';
import { nodeRestrictionPlugin } from './node-restriction.js';

const n1 = testUser('system:node:n1', ['system:nodes', 'system:authenticated']);
const mine: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'mine', namespace: 'ns', uid: 'pod-uid' },
  spec: { nodeName: 'n1' },
};
const other: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'other', namespace: 'ns', uid: 'other-uid' },
  spec: { nodeName: 'n2' },
};

function plugin(features: readonly string[] = []) {
  return nodeRestrictionPlugin(
    testDeps({
      objects: [
        { group: '', resource: 'pods', object: mine },
        { group: '', resource: 'pods', object: other },
      ],
      features,
    }),
  );
}

const attrs = (input: Omit<AttrsInput, 'user'>): AdmissionAttributes => attrsOf({ user: n1, ...input });

async function refused(
  a: AdmissionAttributes,
  message: string,
  code = 403,
  features: readonly string[] = [],
) {
  await assert.rejects(runPlugin(plugin(features), a), (err) => {
    assert.deepEqual(statusOf(err), { code, message });
    return true;
  });
}

const nodeObject = (
  name: string,
  labels: Record<string, string> = {},
  spec: JsonObject = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
  spec,
});

test('the plugin handles creates, updates and deletes', () => {
  const p = plugin();
  assert.equal(p.name, 'NodeRestriction');
  assert.deepEqual([...p.operations].sort(), ['CREATE', 'DELETE', 'UPDATE']);
});

test('users that are not nodes pass untouched; a node user without a name is refused', async () => {
  const pod = { ...mine, metadata: { name: 'x', namespace: 'ns' } };
  await runPlugin(plugin(), attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', object: pod }));
  const notInGroup = testUser('system:node:n1', ['system:authenticated']);
  await runPlugin(
    plugin(),
    attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', object: pod, user: notInGroup }),
  );
  await assert.rejects(
    runPlugin(
      plugin(),
      attrsOf({
        resource: 'pods',
        kind: 'Pod',
        namespace: 'ns',
        object: pod,
        user: testUser('system:node:', ['system:nodes']),
      }),
    ),
    (err) => {
      assert.deepEqual(statusOf(err), {
        code: 403,
        message: 'pods "x" is forbidden: could not determine node from user "system:node:"',
      });
      return true;
    },
  );
  // Resources the plugin does not cover pass.
  const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } };
  await runPlugin(
    plugin(),
    attrs({ resource: 'configmaps', kind: 'ConfigMap', namespace: 'ns', object: cm }),
  );
});

test('nodes: only its own, with allowed labels, no config source, unchanged taints', async () => {
  await runPlugin(
    plugin(),
    attrs({
      resource: 'nodes',
      kind: 'Node',
      object: nodeObject('n1', { 'kubernetes.io/hostname': 'n1', 'example.com/x': 'y' }),
    }),
  );
  await refused(
    attrs({ resource: 'nodes', kind: 'Node', object: nodeObject('n2') }),
    'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
  );
  await refused(
    attrs({ operation: 'DELETE', resource: 'nodes', kind: 'Node', name: 'n2' }),
    'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
  );
  await refused(
    attrs({
      resource: 'nodes',
      kind: 'Node',
      object: nodeObject('n1', {
        'node-restriction.kubernetes.io/pool': 'a',
        'node-role.kubernetes.io/master': '',
        'node.kubernetes.io/ok': 'y',
      }),
    }),
    'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/master',
  );
  await refused(
    attrs({ resource: 'nodes', kind: 'Node', object: nodeObject('n1', {}, { configSource: {} }) }),
    'nodes "n1" is forbidden: node "n1" is not allowed to create pods with a non-nil configSource',
  );

  const taint = { key: 'k', effect: 'NoSchedule' };
  const old = nodeObject(
    'n1',
    { 'kubernetes.io/role': 'x' },
    { taints: [taint], configSource: { configMap: { name: 'a' } } },
  );
  const update = (object: KubeObject, subresource = '') =>
    attrs({ operation: 'UPDATE', resource: 'nodes', kind: 'Node', subresource, object, oldObject: old });
  // Status updates keep labels, taints and config source, or drop the config source.
  await runPlugin(
    plugin(),
    update(nodeObject('n1', { 'kubernetes.io/role': 'x' }, { taints: [taint] }), 'status'),
  );
  await refused(
    update(
      nodeObject(
        'n1',
        { 'kubernetes.io/role': 'x' },
        { taints: [taint], configSource: { configMap: { name: 'b' } } },
      ),
    ),
    'nodes "n1" is forbidden: node "n1" is not allowed to update configSource to a new non-nil configSource',
  );
  await refused(
    update(nodeObject('n1', { 'kubernetes.io/role': 'x' }, { taints: [] })),
    'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
  );
  await refused(
    update(nodeObject('n1', { 'kubernetes.io/arch': 'arm64' }, { taints: [taint] })),
    'nodes "n1" is forbidden: is not allowed to modify labels: kubernetes.io/role',
  );
});

test('persistent volume claims: only status, and only capacity and conditions', async () => {
  const pvc = (status: JsonObject, extra: JsonObject = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: 'ns', resourceVersion: '1' },
    spec: { resources: { requests: { storage: '1Gi' } } },
    status,
    ...extra,
  });
  const old = pvc({ phase: 'Bound', capacity: { storage: '1Gi' } });
  const update = (object: KubeObject, subresource = 'status') =>
    attrs({
      operation: 'UPDATE',
      resource: 'persistentvolumeclaims',
      kind: 'PersistentVolumeClaim',
      namespace: 'ns',
      subresource,
      object,
      oldObject: old,
    });
  const grown = pvc({
    phase: 'Bound',
    capacity: { storage: '2Gi' },
    conditions: [{ type: 'Resizing', status: 'True' }],
  });
  grown.metadata.resourceVersion = '';
  await runPlugin(plugin(), update(grown));
  await refused(update(grown, ''), 'persistentvolumeclaims "c" is forbidden: may only update PVC status');
  await refused(
    attrs({
      operation: 'DELETE',
      resource: 'persistentvolumeclaims',
      kind: 'PersistentVolumeClaim',
      namespace: 'ns',
      name: 'c',
    }),
    'persistentvolumeclaims "c" is forbidden: may only update PVC status',
  );
  await refused(
    update(pvc({ phase: 'Lost', capacity: { storage: '1Gi' } })),
    'persistentvolumeclaims "c" is forbidden: node "n1" is not allowed to update fields other than status.capacity and status.conditions: -status.phase: "Bound"\n+status.phase: "Lost"',
  );
  const allocated = pvc({
    phase: 'Bound',
    allocatedResources: { storage: '2Gi' },
    resizeStatus: 'NodeExpansionInProgress',
  });
  await refused(
    update(allocated),
    'persistentvolumeclaims "c" is forbidden: node "n1" is not allowed to update fields other than status.capacity and status.conditions: +status.allocatedResources: {"storage":"2Gi"}\n+status.resizeStatus: "NodeExpansionInProgress"',
  );
  await runPlugin(plugin(['RecoverVolumeExpansionFailure']), update(allocated));
});

test('service account tokens: only bound to an existing pod of this node, with its uid', async () => {
  const tokenRequest = (boundObjectRef?: JsonObject): KubeObject => ({
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: { name: 'default', namespace: 'ns' },
    spec: { audiences: ['api'], ...(boundObjectRef !== undefined ? { boundObjectRef } : {}) },
  });
  const create = (object: KubeObject) =>
    attrs({
      resource: 'serviceaccounts',
      kind: 'TokenRequest',
      subresource: 'token',
      namespace: 'ns',
      name: 'default',
      object,
    });
  const ref = (name: string, uid: string, kind = 'Pod') => ({ apiVersion: 'v1', kind, name, uid });
  await runPlugin(plugin(), create(tokenRequest(ref('mine', 'pod-uid'))));
  const prefix = 'serviceaccounts "default" is forbidden: ';
  await refused(create(tokenRequest()), `${prefix}node requested token not bound to a pod`);
  await refused(
    create(tokenRequest(ref('mine', 'pod-uid', 'Secret'))),
    `${prefix}node requested token not bound to a pod`,
  );
  await refused(
    create(tokenRequest(ref('mine', ''))),
    `${prefix}node requested token with a pod binding without a uid`,
  );
  await refused(create(tokenRequest(ref('gone', 'u'))), 'pod "gone" not found', 404);
  await refused(
    create(tokenRequest(ref('mine', 'old-uid'))),
    `${prefix}the UID in the bound object reference (old-uid) does not match the UID in record. The object might have been deleted and then recreated`,
  );
  await refused(
    create(tokenRequest(ref('other', 'other-uid'))),
    `${prefix}node requested token bound to a pod scheduled on a different node`,
  );
  // Other service account requests are not restricted here.
  const sa: KubeObject = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'sa', namespace: 'ns' },
  };
  await runPlugin(
    plugin(),
    attrs({ resource: 'serviceaccounts', kind: 'ServiceAccount', namespace: 'ns', object: sa }),
  );
});

test('leases: only its own, in kube-node-lease', async () => {
  const lease = (name: string, namespace = 'kube-node-lease'): KubeObject => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
  });
  const input = (operation: 'CREATE' | 'UPDATE' | 'DELETE', object: KubeObject) =>
    attrs({
      operation,
      group: 'coordination.k8s.io',
      resource: 'leases',
      kind: 'Lease',
      namespace: object.metadata.namespace ?? '',
      name: object.metadata.name ?? '',
      ...(operation === 'DELETE' ? {} : { object }),
      ...(operation === 'UPDATE' ? { oldObject: object } : {}),
    });
  await runPlugin(plugin(), input('CREATE', lease('n1')));
  await runPlugin(plugin(), input('UPDATE', lease('n1')));
  await runPlugin(plugin(), input('DELETE', lease('n1')));
  await refused(
    input('UPDATE', lease('n1', 'kube-system')),
    'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
  );
  for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) {
    await refused(
      input(op, lease('n2')),
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    );
  }
});

test('csinodes: only its own', async () => {
  const csiNode = (name: string): KubeObject => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name },
  });
  const input = (operation: 'CREATE' | 'UPDATE', name: string) =>
    attrs({
      operation,
      group: 'storage.k8s.io',
      resource: 'csinodes',
      kind: 'CSINode',
      object: csiNode(name),
      ...(operation === 'UPDATE' ? { oldObject: csiNode(name) } : {}),
    });
  await runPlugin(plugin(), input('CREATE', 'n1'));
  await runPlugin(plugin(), input('UPDATE', 'n1'));
  await refused(
    input('CREATE', 'n2'),
    'csinodes.storage.k8s.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
  );
  await refused(
    attrs({
      operation: 'DELETE',
      group: 'storage.k8s.io',
      resource: 'csinodes',
      kind: 'CSINode',
      name: 'n2',
    }),
    'csinodes.storage.k8s.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
  );
});
