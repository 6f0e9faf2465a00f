import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { limitRangeItems } from './limit-range.js';
import { pvcValidateLimit } from './validate-pvc.js';

const limitRange = (...limits: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'ns' },
  spec: { limits },
});
const pvc = (storage?: string, limit?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'c', namespace: 'ns' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: {
      ...(limit !== undefined ? { limits: { storage: limit } } : {}),
      ...(storage !== undefined ? { requests: { storage } } : {}),
    },
  },
});
const storageRange = limitRange({
  type: 'PersistentVolumeClaim',
  min: { storage: '1Gi' },
  max: { storage: '10Gi' },
});
const validate = (lr: KubeObject, c: KubeObject): string[] => pvcValidateLimit(limitRangeItems(lr), c);

test('storage requests between min and max pass', () => {
  assert.deepEqual(validate(storageRange, pvc('1Gi')), []);
  assert.deepEqual(validate(storageRange, pvc('10Gi')), []);
});

test('below min, above max, missing', () => {
  assert.deepEqual(validate(storageRange, pvc('500Mi')), [
    'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
  ]);
  assert.deepEqual(validate(storageRange, pvc('20Gi')), [
    'maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
  ]);
  assert.deepEqual(validate(storageRange, pvc()), [
    'minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified',
    'maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified',
  ]);
});

test('a claim limit is not user input: neither the min nor the max reads it', () => {
  assert.deepEqual(validate(storageRange, pvc('2Gi', '100Mi')), []);
  assert.deepEqual(validate(storageRange, pvc('2Gi', '100Gi')), []);
});

test('Container and Pod items do not apply to claims', () => {
  assert.deepEqual(validate(limitRange({ type: 'Container', min: { storage: '1Gi' } }), pvc('1Mi')), []);
});
