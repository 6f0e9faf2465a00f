import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { attrsOf, testDeps, type StoredObject } from '../testing/fake-admission-deps.js';
import { podSecurityPlugin } from './plugin.js';
import { bareSpec, namespaceObject, psLabels, restrictedSpec, run } from './testing/helpers.js';

const config = {
  apiVersion: 'pod-security.admission.config.k8s.io/v1',
  kind: 'PodSecurityConfiguration',
  exemptions: { namespaces: ['kube-system'] },
};
const namespaces = [
  namespaceObject('strict', psLabels({ enforce: 'restricted', audit: 'baseline' })),
  namespaceObject('enforce-only', {
    ...psLabels({ enforce: 'restricted' }),
    ...psLabels({ warn: 'privileged' }),
  }),
];
const objects: StoredObject[] = namespaces.map((object) => ({ group: '', resource: 'namespaces', object }));
const plugin = podSecurityPlugin(testDeps({ objects, config: { PodSecurity: config } }));

const template = (spec: JsonObject): JsonObject => ({ metadata: { labels: { app: 'x' } }, spec });
const hostSpec = { ...bareSpec(), hostNetwork: true };
const workloads: [string, string, string, (t: JsonObject) => JsonObject][] = [
  ['apps', 'deployments', 'Deployment', (t) => ({ spec: { template: t } })],
  ['apps', 'replicasets', 'ReplicaSet', (t) => ({ spec: { template: t } })],
  ['apps', 'statefulsets', 'StatefulSet', (t) => ({ spec: { template: t } })],
  ['apps', 'daemonsets', 'DaemonSet', (t) => ({ spec: { template: t } })],
  ['batch', 'jobs', 'Job', (t) => ({ spec: { template: t } })],
  ['batch', 'cronjobs', 'CronJob', (t) => ({ spec: { jobTemplate: { spec: { template: t } } } })],
  ['', 'replicationcontrollers', 'ReplicationController', (t) => ({ spec: { template: t } })],
  ['', 'podtemplates', 'PodTemplate', (t) => ({ template: t })],
];

function workload(group: string, kind: string, namespace: string, body: JsonObject): KubeObject {
  return {
    apiVersion: group === '' ? 'v1' : `${group}/v1`,
    kind,
    metadata: { name: 'w', namespace },
    ...body,
  };
}

test('workload templates are warned about and audited, never enforced', async () => {
  for (const [group, resource, kind, body] of workloads) {
    const object = workload(group, kind, 'strict', body(template(hostSpec)));
    const out = await run(plugin, attrsOf({ group, resource, kind, namespace: 'strict', object }));
    assert.equal(out.error, undefined, resource);
    assert.equal(out.warnings.length, 1, resource);
    assert.match(
      out.warnings[0] ?? '',
      /^would violate PodSecurity "restricted:latest": host namespaces \(hostNetwork=true\), allowPrivilegeEscalation != false/,
    );
    assert.deepEqual(
      out.annotations,
      {
        'pod-security.kubernetes.io/audit-violations':
          'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
      },
      resource,
    );
    const fine = workload(group, kind, 'strict', body(template(restrictedSpec())));
    assert.deepEqual(
      await run(plugin, attrsOf({ group, resource, kind, namespace: 'strict', object: fine })),
      {
        warnings: [],
        annotations: {},
      },
    );
  }
});

test('no evaluation when audit and warn are privileged, for subresources, or without a template', async () => {
  const deployment = (ns: string) =>
    workload('apps', 'Deployment', ns, { spec: { template: template(hostSpec) } });
  const quiet = { warnings: [], annotations: {} };
  assert.deepEqual(
    await run(
      plugin,
      attrsOf({
        group: 'apps',
        resource: 'deployments',
        kind: 'Deployment',
        namespace: 'enforce-only',
        object: deployment('enforce-only'),
      }),
    ),
    quiet,
  );
  assert.deepEqual(
    await run(
      plugin,
      attrsOf({
        group: 'apps',
        resource: 'deployments',
        kind: 'Deployment',
        subresource: 'scale',
        namespace: 'strict',
        object: deployment('strict'),
      }),
    ),
    quiet,
  );
  const rc = workload('', 'ReplicationController', 'strict', { spec: { replicas: 1 } });
  assert.deepEqual(
    await run(
      plugin,
      attrsOf({
        resource: 'replicationcontrollers',
        kind: 'ReplicationController',
        namespace: 'strict',
        object: rc,
      }),
    ),
    quiet,
  );
  assert.deepEqual(
    await run(
      plugin,
      attrsOf({
        resource: 'services',
        kind: 'Service',
        namespace: 'strict',
        object: workload('', 'Service', 'strict', {}),
      }),
    ),
    quiet,
  );
});

test('exempt namespace, and a namespace that cannot be read, allow the workload', async () => {
  const d = workload('apps', 'Deployment', 'kube-system', { spec: { template: template(hostSpec) } });
  assert.deepEqual(
    await run(
      plugin,
      attrsOf({
        group: 'apps',
        resource: 'deployments',
        kind: 'Deployment',
        namespace: 'kube-system',
        object: d,
      }),
    ),
    {
      warnings: [],
      annotations: { 'pod-security.kubernetes.io/exempt': 'namespace' },
    },
  );
  assert.deepEqual(
    await run(
      plugin,
      attrsOf({ group: 'apps', resource: 'deployments', kind: 'Deployment', namespace: 'gone', object: d }),
    ),
    {
      warnings: [],
      annotations: {
        'pod-security.kubernetes.io/error': 'failed to lookup namespace "gone": namespaces "gone" not found',
      },
    },
  );
});
