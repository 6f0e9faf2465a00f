import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionOperation } from '../attributes.js';
import { attrsOf, runPlugin, statusOf, testDeps, testUser } from '../testing/fake-admission-deps.js';
import type { StoredObject } from '../testing/fake-admission-deps.js';
import { nodeRestrictionPlugin } from './node-restriction.js';

const n1 = testUser('system:node:n1', ['system:nodes', 'system:authenticated']);
const node = (name: string, uid: string): StoredObject => ({
  group: '',
  resource: 'nodes',
  object: { apiVersion: 'v1', kind: 'Node', metadata: { name, uid } },
});
const pod = (name: string, nodeName: string, extra: JsonObject = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', uid: `${name}-uid`, labels: { app: 'a' } },
  spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
  ...extra,
});
const stored = (p: KubeObject): StoredObject => ({ group: '', resource: 'pods', object: p });

const objects = [node('n1', 'node-uid'), stored(pod('mine', 'n1')), stored(pod('other', 'n2'))];

function plugin(list: readonly StoredObject[] = objects) {
  return nodeRestrictionPlugin(testDeps({ objects: list }));
}

function mirror(change: (p: KubeObject & { spec: JsonObject }) => void = () => undefined): KubeObject {
  const p = pod('static-n1', 'n1') as KubeObject & { spec: JsonObject };
  p.metadata.annotations = { 'kubernetes.io/config.mirror': 'hash' };
  p.metadata.ownerReferences = [
    { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid', controller: true },
  ];
  change(p);
  return p;
}

function podAttrs(
  operation: AdmissionOperation,
  opts: { subresource?: string; name?: string; object?: KubeObject; oldObject?: KubeObject },
) {
  return attrsOf({
    operation,
    resource: 'pods',
    kind: opts.subresource === 'eviction' ? 'Eviction' : 'Pod',
    namespace: 'ns',
    user: n1,
    ...opts,
  });
}

async function refused(a: ReturnType<typeof podAttrs>, code: number, message: string, list = objects) {
  await assert.rejects(runPlugin(plugin(list), a), (err) => {
    assert.deepEqual(statusOf(err), { code, message });
    return true;
  });
}

test('a node creates a mirror pod bound to and owned by itself', async () => {
  await runPlugin(plugin(), podAttrs('CREATE', { object: mirror() }));
});

test('mirror pod creation: every refusal, in upstream order and wording', async () => {
  const cases: [KubeObject, string][] = [
    [
      pod('plain', 'n1'),
      'pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
    ],
    [
      mirror((p) => (p.spec['nodeName'] = 'n2')),
      'node "n1" can only create pods with spec.nodeName set to itself',
    ],
    [
      mirror((p) =>
        p.metadata.ownerReferences?.push({ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'x' }),
      ),
      'node "n1" can only create pods with a single owner reference set to itself',
    ],
    [
      mirror((p) => delete p.metadata.ownerReferences),
      'node "n1" can only create pods with an owner reference set to itself',
    ],
    [
      mirror((p) => (p.metadata.ownerReferences![0]!.name = 'n2')),
      'node "n1" can only create pods with an owner reference set to itself',
    ],
    [
      mirror((p) => (p.metadata.ownerReferences![0]!.kind = 'Pod')),
      'node "n1" can only create pods with an owner reference set to itself',
    ],
    [
      mirror((p) => delete p.metadata.ownerReferences![0]!['controller']),
      'node "n1" can only create pods with a controller owner reference set to itself',
    ],
    [
      mirror((p) => (p.metadata.ownerReferences![0]!['blockOwnerDeletion'] = true)),
      'node "n1" must not set blockOwnerDeletion on an owner reference',
    ],
    [
      mirror((p) => (p.metadata.ownerReferences![0]!.uid = 'stale')),
      'node n1 UID mismatch: expected stale got node-uid',
    ],
    [
      mirror((p) => (p.spec['serviceAccountName'] = 'default')),
      'node "n1" can not create pods that reference a service account',
    ],
    [
      mirror((p) => (p.spec['volumes'] = [{ name: 'v', secret: { secretName: 's' } }])),
      'node "n1" can not create pods that reference secrets',
    ],
    [
      mirror((p) => (p.spec['volumes'] = [{ name: 'v', configMap: { name: 'c' } }])),
      'node "n1" can not create pods that reference configmaps',
    ],
    [
      mirror((p) => (p.spec['volumes'] = [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }])),
      'node "n1" can not create pods that reference persistentvolumeclaims',
    ],
  ];
  for (const [object, reason] of cases) {
    const name = object.metadata.name ?? '';
    await refused(podAttrs('CREATE', { object }), 403, `pods "${name}" is forbidden: ${reason}`);
  }
});

test('mirror pod creation when the node object does not exist is a 404 from the node lister', async () => {
  await refused(podAttrs('CREATE', { object: mirror() }), 404, 'node "n1" not found', objects.slice(1));
});

test('a node deletes only pods bound to itself; a missing pod is a 404', async () => {
  await runPlugin(plugin(), podAttrs('DELETE', { name: 'mine' }));
  await refused(
    podAttrs('DELETE', { name: 'other' }),
    403,
    'pods "other" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
  );
  await refused(podAttrs('DELETE', { name: 'gone' }), 404, 'pod "gone" not found');
});

test('a node may not update pods', async () => {
  await refused(
    podAttrs('UPDATE', { name: 'mine', object: pod('mine', 'n1'), oldObject: pod('mine', 'n1') }),
    403,
    'pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
  );
});

test('pod status: only of its own pods, and without label changes', async () => {
  const mine = pod('mine', 'n1');
  const running = pod('mine', 'n1', { status: { phase: 'Running' } });
  await runPlugin(plugin(), podAttrs('UPDATE', { subresource: 'status', object: running, oldObject: mine }));
  const other = pod('other', 'n2');
  await refused(
    podAttrs('UPDATE', { subresource: 'status', object: other, oldObject: other }),
    403,
    'pods "other" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
  );
  const relabeled = pod('mine', 'n1');
  relabeled.metadata.labels = { app: 'b' };
  await refused(
    podAttrs('UPDATE', { subresource: 'status', object: relabeled, oldObject: mine }),
    403,
    'pods "mine" is forbidden: node "n1" cannot update labels through pod status',
  );
  await refused(
    podAttrs('CREATE', { subresource: 'status', name: 'mine', object: mine }),
    403,
    'pods "mine" is forbidden: unexpected operation "CREATE"',
  );
});

test('pod eviction: only of pods bound to itself, the pod named by the path or the Eviction', async () => {
  const eviction = (name: string): KubeObject => ({
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: 'ns' },
  });
  await runPlugin(
    plugin(),
    podAttrs('CREATE', { subresource: 'eviction', name: 'mine', object: eviction('mine') }),
  );
  await runPlugin(
    plugin(),
    podAttrs('CREATE', { subresource: 'eviction', name: '', object: eviction('mine') }),
  );
  await refused(
    podAttrs('CREATE', { subresource: 'eviction', name: 'other', object: eviction('other') }),
    403,
    'pods "other" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
  );
  await refused(
    podAttrs('CREATE', { subresource: 'eviction', name: 'gone', object: eviction('gone') }),
    404,
    'pod "gone" not found',
  );
  await refused(
    podAttrs('CREATE', { subresource: 'eviction', name: '', object: eviction('') }),
    403,
    'pods "Unknown" is forbidden: could not determine pod from request data',
  );
});

test('other pod subresources are refused', async () => {
  const binding: KubeObject = {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: 'mine', namespace: 'ns' },
  };
  await refused(
    podAttrs('CREATE', { subresource: 'binding', name: 'mine', object: binding }),
    403,
    `pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
  );
});
