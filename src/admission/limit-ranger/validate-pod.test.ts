import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { canonicalQuantityString } from '../../machinery/quantity/quantity.js';
import type { JsonObject } from '../../util/json.js';
import { limitRangeItems } from './limit-range.js';
import { podResources } from './pod-resources.js';
import { podValidateLimit } from './validate-pod.js';

const limitRange = (...limits: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'ns' },
  spec: { limits },
});
const container = (name: string, requests?: JsonObject, limits?: JsonObject): JsonObject => ({
  name,
  resources: { ...(limits !== undefined ? { limits } : {}), ...(requests !== undefined ? { requests } : {}) },
});
const pod = (containers: JsonObject[], initContainers: JsonObject[] = []): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers, initContainers },
});
const validate = (lr: KubeObject, p: KubeObject): string[] => podValidateLimit(limitRangeItems(lr), p);
const totals = (p: KubeObject, field: 'requests' | 'limits'): Record<string, string> =>
  Object.fromEntries([...podResources(p, field)].map(([k, v]) => [k, canonicalQuantityString(v)]));

test('Container min, max and ratio for each container and init container, in order', () => {
  const lr = limitRange({
    type: 'Container',
    min: { cpu: '100m' },
    max: { memory: '1Gi' },
    maxLimitRequestRatio: { cpu: '2' },
  });
  const p = pod(
    [
      container('a', { cpu: '50m' }, { cpu: '200m', memory: '512Mi' }),
      container('ok', { cpu: '1' }, { cpu: '1', memory: '1Gi' }),
    ],
    [container('init', { cpu: '100m' }, { cpu: '400m' })],
  );
  assert.deepEqual(validate(lr, p), [
    'minimum cpu usage per Container is 100m, but request is 50m',
    'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    'maximum memory usage per Container is 1Gi.  No limit is specified',
    'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
  ]);
});

test('resources of a Container item checked in name order', () => {
  const lr = limitRange({ type: 'Container', min: { memory: '1Mi', cpu: '1m' } });
  assert.deepEqual(validate(lr, pod([container('a')])), [
    'minimum cpu usage per Container is 1m.  No request is specified',
    'minimum memory usage per Container is 1Mi.  No request is specified',
  ]);
});

test('pod totals: containers summed, init containers as a floor', () => {
  const p = pod(
    [
      container('a', { cpu: '500m', memory: '512Mi' }, { memory: '512Mi' }),
      container('b', { cpu: '600m' }, { memory: '512Mi' }),
    ],
    [container('i1', { cpu: '1' }), container('i2', { memory: '2Gi' }, { cpu: '2' })],
  );
  assert.deepEqual(totals(p, 'requests'), { cpu: '1100m', memory: '2Gi' });
  assert.deepEqual(totals(p, 'limits'), { memory: '1Gi', cpu: '2' });
  // Sums print in canonical form.
  assert.deepEqual(
    totals(pod([container('a', { cpu: '0.5' }), container('b', { cpu: '0.5' })]), 'requests'),
    {
      cpu: '1',
    },
  );
});

test('Pod min, max and ratio over the totals', () => {
  const lr = limitRange({
    type: 'Pod',
    min: { cpu: '1' },
    max: { memory: '1Gi' },
    maxLimitRequestRatio: { cpu: '3' },
  });
  const p = pod([
    container('a', { cpu: '200m', memory: '1Gi' }, { cpu: '1' }),
    container('b', { cpu: '300m' }, { cpu: '1' }),
  ]);
  assert.deepEqual(validate(lr, p), [
    'minimum cpu usage per Pod is 1, but request is 500m',
    'maximum memory usage per Pod is 1Gi.  No limit is specified',
    'cpu max limit to request ratio per Pod is 3, but provided ratio is 4.000000',
  ]);
  const fine = pod([container('a', { cpu: '1', memory: '512Mi' }, { cpu: '2', memory: '512Mi' })]);
  assert.deepEqual(validate(lr, fine), []);
});

test('an init container above the Pod max refuses the pod', () => {
  const lr = limitRange({ type: 'Pod', max: { memory: '1Gi' } });
  const p = pod(
    [container('a', undefined, { memory: '256Mi' })],
    [container('init', undefined, { memory: '2Gi' })],
  );
  assert.deepEqual(validate(lr, p), ['maximum memory usage per Pod is 1Gi, but limit is 2Gi']);
});

test('PersistentVolumeClaim items do not apply to pods', () => {
  assert.deepEqual(
    validate(limitRange({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' } }), pod([container('a')])),
    [],
  );
});
