import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import {
  defaultContainerResourceRequirements,
  limitRangerAnnotation,
  mergePodResourceRequirements,
} from './defaults.js';
import { limitRangeItems } from './limit-range.js';

const limitRange = (...limits: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'ns' },
  spec: { limits },
});
const pod = (containers: JsonObject[], initContainers?: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers, ...(initContainers !== undefined ? { initContainers } : {}) },
});
const apply = (lr: KubeObject, p: KubeObject): void =>
  mergePodResourceRequirements(p, defaultContainerResourceRequirements(limitRangeItems(lr)));
const containers = (p: KubeObject, field = 'containers'): JsonObject[] =>
  (p['spec'] as JsonObject)[field] as JsonObject[];

const containerDefaults = limitRange({
  type: 'Container',
  default: { memory: '512Mi', cpu: '500m' },
  defaultRequest: { cpu: '100m', memory: '256Mi' },
});

test('a container without resources gets default limits and requests, and the annotation', () => {
  const p = pod([{ name: 'nginx', image: 'nginx', resources: {} }]);
  apply(containerDefaults, p);
  assert.deepEqual(containers(p)[0]!['resources'], {
    limits: { cpu: '500m', memory: '512Mi' },
    requests: { cpu: '100m', memory: '256Mi' },
  });
  assert.deepEqual(Object.keys(containers(p)[0]!['resources'] as JsonObject), ['limits', 'requests']);
  assert.equal(
    p.metadata.annotations?.[limitRangerAnnotation],
    'LimitRanger plugin set: cpu, memory request for container nginx; cpu, memory limit for container nginx',
  );
});

test('only missing resources are filled; init containers named as such', () => {
  const p = pod(
    [{ name: 'app', resources: { requests: { memory: '1Gi' }, limits: { memory: '1Gi', cpu: '1' } } }],
    [{ name: 'setup' }],
  );
  p.metadata.annotations = { keep: 'me' };
  apply(containerDefaults, p);
  assert.deepEqual(containers(p)[0]!['resources'], {
    limits: { cpu: '1', memory: '1Gi' },
    requests: { cpu: '100m', memory: '1Gi' },
  });
  assert.deepEqual(containers(p, 'initContainers')[0]!['resources'], {
    limits: { cpu: '500m', memory: '512Mi' },
    requests: { cpu: '100m', memory: '256Mi' },
  });
  assert.deepEqual(p.metadata.annotations, {
    keep: 'me',
    [limitRangerAnnotation]:
      'LimitRanger plugin set: cpu request for container app; cpu, memory request for init container setup; cpu, memory limit for init container setup',
  });
});

test('the example of the brief: cpu defaults only', () => {
  const p = pod([{ name: 'nginx' }]);
  apply(limitRange({ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '500m' } }), p);
  assert.equal(
    p.metadata.annotations?.[limitRangerAnnotation],
    'LimitRanger plugin set: cpu request for container nginx; cpu limit for container nginx',
  );
  assert.deepEqual(containers(p)[0]!['resources'], { limits: { cpu: '1' }, requests: { cpu: '500m' } });
});

test('a key present (even null) counts as set; nothing set, no annotation', () => {
  const p = pod([
    { name: 'a', resources: { limits: { cpu: null, memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } } },
  ]);
  apply(containerDefaults, p);
  assert.deepEqual(containers(p)[0]!['resources'], {
    limits: { cpu: null, memory: '1Gi' },
    requests: { cpu: '1', memory: '1Gi' },
  });
  assert.equal(p.metadata.annotations, undefined);
});

test('later Container items win; Pod and PVC items give no defaults', () => {
  const lr = limitRange(
    { type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
    { type: 'Pod', max: { cpu: '4' } },
    { type: 'Container', default: { cpu: '2' }, defaultRequest: { cpu: '200m' } },
  );
  const p = pod([{ name: 'a' }]);
  apply(lr, p);
  assert.deepEqual(containers(p)[0]!['resources'], { limits: { cpu: '2' }, requests: { cpu: '200m' } });
  const untouched = pod([{ name: 'a' }]);
  apply(limitRange({ type: 'Pod', max: { cpu: '4' } }), untouched);
  assert.deepEqual(containers(untouched)[0], { name: 'a' });
  assert.equal(untouched.metadata.annotations, undefined);
});

test('added keys come sorted; other resource fields are kept after limits and requests', () => {
  const p = pod([{ name: 'a', resources: { claims: [{ name: 'gpu' }], requests: { memory: '1Gi' } } }]);
  apply(limitRange({ type: 'Container', defaultRequest: { cpu: '1' } }), p);
  const resources = containers(p)[0]!['resources'] as JsonObject;
  assert.deepEqual(Object.keys(resources), ['requests', 'claims']);
  assert.deepEqual(Object.keys(resources['requests'] as JsonObject), ['cpu', 'memory']);
});
