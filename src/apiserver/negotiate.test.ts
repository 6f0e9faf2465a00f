import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../machinery/errors.js';
import { negotiateObject } from './negotiate.js';

test('kubectl get asks for a Table first and falls back to JSON', () => {
  const n = negotiateObject(
    'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
  );
  assert.equal(n.as, 'table');
  assert.equal(n.asVersion, 'v1');
});

test('plain, wildcard, YAML and metadata-only requests', () => {
  assert.equal(negotiateObject(undefined).format, 'json');
  assert.equal(negotiateObject('*/*').as, 'object');
  assert.equal(negotiateObject('application/yaml').format, 'yaml');
  assert.equal(negotiateObject('application/vnd.kubernetes.protobuf, */*').format, 'json');
  assert.equal(
    negotiateObject('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io').as,
    'metadata',
  );
});

test('nothing acceptable is 406', () => {
  assert.throws(
    () => negotiateObject('text/html'),
    (e: unknown) => e instanceof StatusError && e.code === 406,
  );
  assert.throws(
    () => negotiateObject('application/json;as=Table;v=v2;g=meta.k8s.io'),
    (e: unknown) => e instanceof StatusError && e.code === 406,
  );
});
