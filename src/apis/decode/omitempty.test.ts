import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinSchemas } from '../schema/builtin.js';
import { decodeObject } from './decode.js';

test('empty optional maps and slices are dropped (omitempty); empty structs and required lists stay', () => {
  const r = decodeObject({
    registry: builtinSchemas(),
    definition: 'io.k8s.api.core.v1.Pod',
    fieldValidation: 'Strict',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: {}, finalizers: [], annotations: { a: 'b' } },
      spec: { containers: [], volumes: [], nodeSelector: {}, securityContext: {} },
    },
  });
  const o = r.object as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  assert.equal(o.metadata['labels'], undefined);
  assert.equal(o.metadata['finalizers'], undefined);
  assert.deepEqual(o.metadata['annotations'], { a: 'b' });
  assert.deepEqual(o.spec['containers'], [], 'required list kept');
  assert.equal(o.spec['volumes'], undefined);
  assert.equal(o.spec['nodeSelector'], undefined);
  assert.deepEqual(o.spec['securityContext'], {}, 'structs are never omitted');
});
