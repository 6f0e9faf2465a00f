import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { anonymousUser } from '../../machinery/user.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes, AdmissionOperation, ObjectAttributes } from '../attributes.js';
import type { AdmissionDependencies, GroupResource } from '../dependencies.js';
import { limitRangerPlugin } from './plugin.js';

function deps(ranges: readonly KubeObject[], seen: string[] = [], fail = false): AdmissionDependencies {
  return {
    lookup: {
      get: () => Promise.resolve(undefined),
      list: (gr: GroupResource, namespace: string) => {
        seen.push(`${gr.resource}/${namespace}`);
        if (fail) return Promise.reject(new Error('cache not ready'));
        return Promise.resolve(ranges.filter((r) => r.metadata.namespace === namespace));
      },
    },
    authorize: () => Promise.resolve(true),
    features: { enabled: () => false },
    now: () => 0,
    pluginConfig: () => undefined,
    log: () => {},
    updateStatus: (_gr, o) => Promise.resolve(o),
  };
}

const limitRange = (...limits: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'ns' },
  spec: { limits },
});
const pod = (name: string, containers: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { containers },
});
const pvc = (storage: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'ns' },
  spec: { resources: { requests: { storage } } },
});

const resources = {
  pods: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  persistentvolumeclaims: {
    group: '',
    version: 'v1',
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
  },
} as const;

function attrs(
  resource: keyof typeof resources,
  object: KubeObject,
  opts: { operation?: AdmissionOperation; subresource?: string; oldObject?: KubeObject; name?: string } = {},
): ObjectAttributes {
  const a: AdmissionAttributes & { object: KubeObject } = {
    operation: opts.operation ?? 'CREATE',
    resource: resources[resource],
    subresource: opts.subresource ?? '',
    namespace: 'ns',
    name: opts.name ?? object.metadata.name ?? '',
    object,
    ...(opts.oldObject !== undefined ? { oldObject: opts.oldObject } : {}),
    dryRun: false,
    user: anonymousUser,
  };
  return a;
}

async function refusal(p: Promise<void> | void): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err;
  }
  assert.fail('expected a refusal');
}

const cpuRange = limitRange({
  type: 'Container',
  min: { cpu: '100m' },
  max: { cpu: '2' },
  default: { cpu: '1' },
  defaultRequest: { cpu: '500m' },
  maxLimitRequestRatio: { cpu: '4' },
});

test('create: defaults and annotation, then validation passes', async () => {
  const plugin = limitRangerPlugin(deps([cpuRange]));
  assert.equal(plugin.name, 'LimitRanger');
  assert.deepEqual([...plugin.operations], ['CREATE', 'UPDATE']);
  const p = pod('web', [{ name: 'nginx', image: 'nginx', resources: {} }]);
  await plugin.admit!(attrs('pods', p));
  assert.deepEqual((p['spec'] as { containers: JsonObject[] }).containers[0]!['resources'], {
    limits: { cpu: '1' },
    requests: { cpu: '500m' },
  });
  assert.deepEqual(p.metadata.annotations, {
    'kubernetes.io/limit-ranger':
      'LimitRanger plugin set: cpu request for container nginx; cpu limit for container nginx',
  });
  await plugin.validate!(attrs('pods', p));
});

test('one violation: 403 without brackets', async () => {
  const plugin = limitRangerPlugin(deps([cpuRange]));
  const p = pod('x', [{ name: 'a', resources: { limits: { cpu: '200m' }, requests: { cpu: '50m' } } }]);
  const err = await refusal(plugin.validate!(attrs('pods', p)));
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  assert.equal(
    err.message,
    'pods "x" is forbidden: minimum cpu usage per Container is 100m, but request is 50m',
  );
  assert.deepEqual(err.status.details, { name: 'x', kind: 'pods' });
});

test('several violations of one LimitRange: bracketed, comma separated', async () => {
  const plugin = limitRangerPlugin(deps([cpuRange]));
  const p = pod('x', [{ name: 'a', resources: { limits: { cpu: '3' }, requests: { cpu: '50m' } } }]);
  const err = await refusal(plugin.validate!(attrs('pods', p)));
  assert.equal(
    err.message,
    'pods "x" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 2, but limit is 3, cpu max limit to request ratio per Container is 4, but provided ratio is 60.000000]',
  );
});

test('the first refusing LimitRange decides', async () => {
  const memoryRange: KubeObject = {
    ...limitRange({ type: 'Pod', max: { memory: '1Gi' } }),
    metadata: { name: 'mem', namespace: 'ns' },
  };
  const plugin = limitRangerPlugin(deps([memoryRange, cpuRange]));
  const p = pod('x', [{ name: 'a', resources: { limits: { cpu: '1' }, requests: { cpu: '50m' } } }]);
  const err = await refusal(plugin.validate!(attrs('pods', p)));
  assert.equal(
    err.message,
    'pods "x" is forbidden: maximum memory usage per Pod is 1Gi.  No limit is specified',
  );
});

test('PersistentVolumeClaims: validated on create and update, never defaulted', async () => {
  const lr = limitRange({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '5Gi' } });
  const plugin = limitRangerPlugin(deps([lr]));
  const small = pvc('100Mi');
  await plugin.admit!(attrs('persistentvolumeclaims', small));
  assert.deepEqual(small['spec'], { resources: { requests: { storage: '100Mi' } } });
  let err = await refusal(plugin.validate!(attrs('persistentvolumeclaims', small)));
  assert.equal(
    err.message,
    'persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 100Mi',
  );
  err = await refusal(
    plugin.validate!(
      attrs('persistentvolumeclaims', pvc('10Gi'), { operation: 'UPDATE', oldObject: pvc('2Gi') }),
    ),
  );
  assert.equal(
    err.message,
    'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi',
  );
  // A claim being deleted is left alone.
  const deleting: KubeObject = {
    ...pvc('2Gi'),
    metadata: { name: 'data', deletionTimestamp: '2024-01-01T00:00:00Z' },
  };
  await plugin.validate!(
    attrs('persistentvolumeclaims', pvc('10Gi'), { operation: 'UPDATE', oldObject: deleting }),
  );
});

test('pod updates, subresources and other resources are not looked at', async () => {
  const seen: string[] = [];
  const plugin = limitRangerPlugin(deps([cpuRange], seen));
  const bad = pod('x', [{ name: 'a', resources: { limits: { cpu: '3' }, requests: { cpu: '3' } } }]);
  await plugin.admit!(attrs('pods', bad, { operation: 'UPDATE', oldObject: bad }));
  await plugin.validate!(attrs('pods', bad, { operation: 'UPDATE', oldObject: bad }));
  await plugin.validate!(attrs('pods', bad, { subresource: 'status' }));
  const svc: ObjectAttributes = {
    ...attrs('pods', bad),
    resource: { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  };
  await plugin.validate!(svc);
  assert.deepEqual(seen, []);
  assert.equal(bad.metadata.annotations, undefined);
});

test('no LimitRange in the namespace: one lookup per phase, the pod untouched', async () => {
  const seen: string[] = [];
  const plugin = limitRangerPlugin(deps([], seen));
  const p = pod('x', [{ name: 'a' }]);
  const before = JSON.stringify(p);
  await plugin.admit!(attrs('pods', p));
  await plugin.validate!(attrs('pods', p));
  assert.equal(JSON.stringify(p), before);
  assert.deepEqual(seen, ['limitranges/ns', 'limitranges/ns']);
});

test('a failing lookup refuses as upstream', async () => {
  const plugin = limitRangerPlugin(deps([], [], true));
  const err = await refusal(plugin.admit!(attrs('pods', pod('x', [{ name: 'a' }]))));
  assert.equal(
    err.message,
    'pods "x" is forbidden: unable to CREATE /v1, Resource=pods at this time because there was an error enforcing limit ranges',
  );
});
