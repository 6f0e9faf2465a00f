import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { defaultIngressClassPlugin } from './default-ingress-class.js';
import { objectAttrs, runPlugin, statusOf, testDeps } from './testing/fake-admission-deps.js';
import type { StoredObject } from './testing/fake-admission-deps.js';

const ic = (name: string, created: string, isDefault?: string): StoredObject => ({
  group: 'networking.k8s.io',
  resource: 'ingressclasses',
  object: {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: {
      name,
      creationTimestamp: created,
      ...(isDefault !== undefined
        ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': isDefault } }
        : {}),
    },
    spec: { controller: 'example.com/ingress' },
  },
});

const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'web', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } }, ...spec },
});

const attrs = (object: KubeObject, operation: 'CREATE' | 'UPDATE' = 'CREATE', subresource = '') =>
  objectAttrs({
    operation,
    group: 'networking.k8s.io',
    resource: 'ingresses',
    kind: 'Ingress',
    namespace: 'ns',
    subresource,
    object,
  });
const classOf = (o: KubeObject): unknown => (o['spec'] as { ingressClassName?: unknown }).ingressClassName;

test('DefaultIngressClass is a create-only mutating plugin', () => {
  const p = defaultIngressClassPlugin(testDeps());
  assert.equal(p.name, 'DefaultIngressClass');
  assert.deepEqual([...p.operations], ['CREATE']);
});

test('an Ingress without a class gets the default one', async () => {
  const deps = testDeps({
    objects: [ic('a', '2023-01-01T00:00:00Z'), ic('nginx', '2023-01-01T00:00:00Z', 'true')],
  });
  const ing = ingress();
  await runPlugin(defaultIngressClassPlugin(deps), attrs(ing));
  assert.equal(classOf(ing), 'nginx');
});

test('several defaults: the newest, then the lowest name; only "true" marks a default', async () => {
  const deps = testDeps({
    objects: [
      ic('old', '2022-01-01T00:00:00Z', 'true'),
      ic('new-z', '2023-02-01T00:00:00Z', 'true'),
      ic('new-m', '2023-02-01T00:00:00Z', 'true'),
      ic('newest', '2023-06-01T00:00:00Z', 'True'),
    ],
  });
  const ing = ingress();
  await runPlugin(defaultIngressClassPlugin(deps), attrs(ing));
  assert.equal(classOf(ing), 'new-m');
});

test('no default, an explicit class (even ""), or the legacy annotation: left alone', async () => {
  const none = ingress();
  await runPlugin(
    defaultIngressClassPlugin(testDeps({ objects: [ic('a', '2023-01-01T00:00:00Z')] })),
    attrs(none),
  );
  assert.equal(classOf(none), undefined);
  const plugin = defaultIngressClassPlugin(
    testDeps({ objects: [ic('nginx', '2023-01-01T00:00:00Z', 'true')] }),
  );
  const named = ingress({ ingressClassName: '' });
  await runPlugin(plugin, attrs(named));
  assert.equal(classOf(named), '');
  const legacy = ingress({}, { 'kubernetes.io/ingress.class': '' });
  await runPlugin(plugin, attrs(legacy));
  assert.equal(classOf(legacy), undefined);
  const updated = ingress();
  await runPlugin(plugin, attrs(updated, 'UPDATE'));
  assert.equal(classOf(updated), undefined);
  const status = ingress();
  await runPlugin(plugin, attrs(status, 'CREATE', 'status'));
  assert.equal(classOf(status), undefined);
});

test('a failing lookup is refused as Forbidden', async () => {
  const deps = testDeps();
  const plugin = defaultIngressClassPlugin({
    ...deps,
    lookup: { ...deps.lookup, list: () => Promise.reject(new Error('boom')) },
  });
  await assert.rejects(runPlugin(plugin, attrs(ingress())), (err) => {
    assert.deepEqual(statusOf(err), {
      code: 403,
      message: 'ingresses.networking.k8s.io "web" is forbidden: boom',
    });
    return true;
  });
});
