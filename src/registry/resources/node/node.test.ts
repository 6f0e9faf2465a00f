import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx, messages } from '../../../apis/apps/v1/testdata/fixtures.js';
import type { KubeObject } from '../../../machinery/object.js';
import { nodeV1Resources } from './index.js';

const [runtimeClasses] = nodeV1Resources;

function rc(handler: string): KubeObject {
  return { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'r' }, handler };
}

test('RuntimeClass strategy: created by PUT, updates need a resourceVersion', () => {
  const s = runtimeClasses!.strategy;
  assert.equal(s.namespaced, false);
  assert.equal(s.allowCreateOnUpdate, true);
  assert.equal(s.allowUnconditionalUpdate, false);
  const obj = rc('runc');
  s.prepareForCreate(ctx, obj);
  assert.equal(obj.metadata.generation, undefined);
});

test('update repeats the create checks, then keeps the handler', () => {
  assert.deepEqual(messages(runtimeClasses!.strategy.validateUpdate(ctx, rc('a.b'), rc('runc'))), [
    'handler: Invalid value: "a.b": must not contain dots',
    'handler: Invalid value: "a.b": field is immutable',
  ]);
});
