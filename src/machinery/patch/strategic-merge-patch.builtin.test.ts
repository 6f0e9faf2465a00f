import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../util/json.js';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const POD = 'io.k8s.api.core.v1.Pod';
const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';

function apply(definition: string, original: JsonObject, patch: JsonObject): JsonObject {
  return applyStrategicMergePatch({ original, patch, registry: builtinSchemas(), definition });
}

const podTemplateSpec = (): JsonObject => ({
  containers: [
    {
      name: 'app',
      image: 'nginx:1',
      env: [{ name: 'A', value: '1' }],
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    },
  ],
  volumes: [{ name: 'data', emptyDir: {} }],
  tolerations: [{ key: 'k1', operator: 'Exists' }],
});

describe('strategic merge patch with the built-in schemas', () => {
  it('Pod: containers/env/ports merge by key, tolerations replace, finalizers merge as a set', () => {
    const pod: JsonObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', finalizers: ['x'] },
      spec: podTemplateSpec(),
    };
    const out = apply(POD, pod, {
      metadata: { finalizers: ['y'] },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx:2',
            env: [{ name: 'B', value: '2' }],
            ports: [{ containerPort: 443, protocol: 'TCP' }],
          },
        ],
        tolerations: [{ key: 'k2', operator: 'Exists' }],
      },
    });
    // As upstream: items new to a merged list come before the server-only ones.
    assert.deepEqual((out.metadata as JsonObject).finalizers, ['y', 'x']);
    const spec = out.spec as JsonObject;
    assert.deepEqual(spec.containers, [
      {
        name: 'app',
        image: 'nginx:2',
        env: [
          { name: 'B', value: '2' },
          { name: 'A', value: '1' },
        ],
        ports: [
          { containerPort: 443, protocol: 'TCP' },
          { containerPort: 80, protocol: 'TCP' },
        ],
      },
    ]);
    assert.deepEqual(spec.tolerations, [{ key: 'k2', operator: 'Exists' }]);
  });

  it('Pod: volumes use merge,retainKeys', () => {
    const pod: JsonObject = { metadata: { name: 'p' }, spec: podTemplateSpec() };
    const out = apply(POD, pod, {
      spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/d' } }] },
    });
    assert.deepEqual((out.spec as JsonObject).volumes, [{ name: 'data', hostPath: { path: '/d' } }]);
  });

  it('Deployment: the strategy retainKeys directive, replicas and nested template containers', () => {
    const dep: JsonObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { app: 'd' } },
      spec: {
        replicas: 1,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        template: { metadata: { labels: { app: 'd' } }, spec: podTemplateSpec() },
      },
    };
    const out = apply(DEPLOYMENT, dep, {
      metadata: { labels: { tier: 'web' } },
      spec: {
        replicas: 3,
        strategy: { $retainKeys: ['type'], type: 'Recreate' },
        template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } },
      },
    });
    const spec = out.spec as JsonObject;
    assert.deepEqual((out.metadata as JsonObject).labels, { app: 'd', tier: 'web' });
    assert.equal(spec.replicas, 3);
    assert.deepEqual(spec.strategy, { type: 'Recreate' });
    const containers = ((spec.template as JsonObject).spec as JsonObject).containers as JsonObject[];
    assert.deepEqual(
      containers.map((c) => c.name),
      ['sidecar', 'app'],
    );
    const before = (((dep.spec as JsonObject).template as JsonObject).spec as JsonObject)
      .containers as JsonObject[];
    assert.equal(containers[1], before[0], 'untouched items are shared');
  });
});
