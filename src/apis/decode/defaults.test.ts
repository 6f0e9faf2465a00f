import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemas } from '../schema/builtin.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { decodeObject } from './decode.js';
import { zeroFieldValue } from './zero.js';

function decode(definition: string, body: unknown): JsonObject {
  const r = decodeObject({ registry: builtinSchemas(), definition, body, fieldValidation: 'Strict' });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.unknownFields, []);
  return r.object;
}

/** Follows a path of keys and indexes. */
function at(v: JsonValue | undefined, ...path: (string | number)[]): JsonValue | undefined {
  let cur = v;
  for (const p of path) {
    if (typeof p === 'number') cur = Array.isArray(cur) ? cur[p] : undefined;
    else cur = cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? cur[p] : undefined;
  }
  return cur;
}

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
const POD = 'io.k8s.api.core.v1.Pod';

const minimalDeployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }] }] },
    },
  },
};

describe('schema defaults and Go zero values', () => {
  it('fills a minimal Deployment like upstream prints it', () => {
    const d = decode(DEPLOYMENT, minimalDeployment);
    assert.deepEqual(d['status'], {});
    assert.deepEqual(at(d, 'spec', 'strategy'), {});
    assert.deepEqual(at(d, 'spec', 'template', 'metadata'), {
      labels: { app: 'web' },
      creationTimestamp: null,
    });
    assert.deepEqual(at(d, 'spec', 'template', 'spec', 'containers', 0), {
      name: 'nginx',
      image: 'nginx',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: {},
    });
    // absent lists stay absent
    assert.equal(at(d, 'spec', 'template', 'spec', 'volumes'), undefined);
    assert.equal(at(d, 'spec', 'template', 'spec', 'containers', 0, 'env'), undefined);
  });

  it('keeps given values and a given creationTimestamp', () => {
    const body = structuredClone(minimalDeployment) as JsonObject;
    body['metadata'] = { name: 'web', creationTimestamp: '2024-01-02T03:04:05Z' };
    body['status'] = { replicas: 2 };
    const d = decode(DEPLOYMENT, body);
    assert.deepEqual(d['metadata'], { name: 'web', creationTimestamp: '2024-01-02T03:04:05Z' });
    assert.deepEqual(d['status'], { replicas: 2 });
  });

  it('gives a Service status.loadBalancer and zero ports', () => {
    const s = decode('io.k8s.api.core.v1.Service', {
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80 }] },
    });
    assert.deepEqual(s['status'], { loadBalancer: {} });
    // protocol from +default=TCP; a zero IntOrString prints as 0 (the Service defaulter replaces it)
    assert.deepEqual(at(s, 'spec', 'ports'), [{ port: 80, protocol: 'TCP', targetPort: 0 }]);
  });

  it('gives a Pod status {} and visits every container', () => {
    const p = decode(POD, {
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'a' }, { name: 'b', resources: { limits: { cpu: '1' } } }],
        initContainers: [{ name: 'i' }],
      },
    });
    assert.deepEqual(p['status'], {});
    assert.deepEqual(at(p, 'metadata'), { name: 'p', creationTimestamp: null });
    assert.deepEqual(at(p, 'spec', 'containers'), [
      { name: 'a', resources: {} },
      { name: 'b', resources: { limits: { cpu: '1' } } },
    ]);
    assert.deepEqual(at(p, 'spec', 'initContainers'), [{ name: 'i', resources: {} }]);
    // a null list item is Go's zero struct
    const z = decode(POD, { spec: { containers: [null] } });
    assert.deepEqual(at(z, 'spec', 'containers'), [{ name: '', resources: {} }]);
  });

  it('fills nested template metadata of CronJobs and StatefulSet claim templates', () => {
    const c = decode('io.k8s.api.batch.v1.CronJob', {
      metadata: { name: 'c' },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    });
    assert.equal(at(c, 'spec', 'jobTemplate', 'metadata', 'creationTimestamp'), null);
    assert.equal(at(c, 'spec', 'jobTemplate', 'spec', 'template', 'metadata', 'creationTimestamp'), null);
    const s = decode('io.k8s.api.apps.v1.StatefulSet', {
      metadata: { name: 's' },
      spec: { volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
    });
    assert.deepEqual(at(s, 'spec', 'volumeClaimTemplates', 0), {
      metadata: { name: 'data', creationTimestamp: null },
      spec: { resources: {} },
      status: {},
    });
    assert.deepEqual(s['status'], { availableReplicas: 0, replicas: 0 });
  });

  it('prints zero times as null and zero quantities as "0"; leaves free-form values alone', () => {
    const e = decode('io.k8s.api.core.v1.Event', {
      metadata: { name: 'e' },
      involvedObject: { kind: 'Pod' },
    });
    assert.equal(e['eventTime'], null);
    assert.deepEqual(e['source'], {});
    assert.deepEqual(e['involvedObject'], { kind: 'Pod' });
    const p = decode(POD, {
      spec: {
        containers: [
          { name: 'a', env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }] },
        ],
      },
    });
    assert.deepEqual(at(p, 'spec', 'containers', 0, 'env', 0, 'valueFrom', 'resourceFieldRef'), {
      resource: 'limits.cpu',
      divisor: '0',
    });
    const cr = decode('io.k8s.api.apps.v1.ControllerRevision', { metadata: { name: 'r' } });
    assert.deepEqual(cr, { metadata: { name: 'r', creationTimestamp: null }, revision: 0 });
  });

  it('still drops explicit nulls (except the creationTimestamp rule)', () => {
    const d = decode(DEPLOYMENT, {
      metadata: { name: 'web', creationTimestamp: null, labels: null },
      spec: { replicas: null, strategy: null },
    });
    assert.deepEqual(d['metadata'], { name: 'web', creationTimestamp: null });
    assert.deepEqual(d['spec'], {
      strategy: {},
      template: { metadata: { creationTimestamp: null }, spec: {} },
    });
  });
});

describe('quantity canonicalisation', () => {
  const limitsOf = (limits: JsonObject): JsonValue | undefined =>
    at(
      decode(POD, { spec: { containers: [{ name: 'a', resources: { limits } }] } }),
      'spec',
      'containers',
      0,
      'resources',
      'limits',
    );

  it('rewrites quantities to the text upstream serializes', () => {
    assert.deepEqual(limitsOf({ cpu: '1000m', memory: '1024Mi' }), { cpu: '1', memory: '1Gi' });
    assert.deepEqual(limitsOf({ cpu: '0.5', memory: '1e3', storage: ' 2Gi ', x: '1.5Gi' }), {
      cpu: '500m',
      memory: '1e3',
      storage: '2Gi',
      x: '1536Mi',
    });
    assert.deepEqual(limitsOf({ cpu: 2, memory: 1000, y: 0.25 }), { cpu: '2', memory: '1k', y: '250m' });
  });

  it('covers single quantity fields and other quantity maps', () => {
    const p = decode(POD, {
      spec: {
        containers: [{ name: 'a' }],
        overhead: { cpu: '100m', memory: '1048576', x: '0.5Gi' },
        volumes: [{ name: 'v', emptyDir: { sizeLimit: '1024Mi' } }],
      },
    });
    assert.deepEqual(at(p, 'spec', 'overhead'), { cpu: '100m', memory: '1048576', x: '512Mi' });
    assert.deepEqual(at(p, 'spec', 'volumes', 0, 'emptyDir'), { sizeLimit: '1Gi' });
  });

  it('reports invalid quantities with upstream messages', () => {
    const r = decodeObject({
      registry: builtinSchemas(),
      definition: POD,
      body: {
        spec: { containers: [{ name: 'a', resources: { limits: { memory: '1ki', x: '1.2.3', y: true } } }] },
      },
      fieldValidation: 'Strict',
    });
    assert.deepEqual(r.errors, [
      "unable to parse quantity's suffix",
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ]);
  });
});

describe('zeroFieldValue', () => {
  it('gives each kind its zero status', () => {
    const registry = builtinSchemas();
    const zero = (apiVersion: string, kind: string) =>
      zeroFieldValue({ registry, apiVersion, kind, field: 'status' });
    assert.deepEqual(zero('apps/v1', 'Deployment'), {});
    assert.deepEqual(zero('apps/v1', 'ReplicaSet'), { replicas: 0 });
    assert.deepEqual(zero('v1', 'Service'), { loadBalancer: {} });
    assert.equal(zero('example.com/v1', 'Widget'), undefined);
    const a = zero('v1', 'Service');
    assert.ok(a !== undefined && a !== zero('v1', 'Service'), 'fresh copies');
  });
});
