import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { applyJsonPatch } from './json-patch.js';
import { PatchError } from './errors.js';

function deploy(): JsonObject {
  return {
    metadata: { name: 'web', labels: { app: 'web', 'a/b': 'x', 'c~d': 'y' } },
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } } },
    status: { ready: 1 },
  };
}

function expectError(doc: JsonValue, patch: unknown, kind: PatchError['kind'], message: string): void {
  assert.throws(
    () => applyJsonPatch(doc, patch),
    (e: unknown) => e instanceof PatchError && e.kind === kind && e.message === message,
  );
}

describe('applyJsonPatch', () => {
  it('applies add/remove/replace/move/copy/test without mutating the input', () => {
    const doc = deploy();
    const before = JSON.stringify(doc);
    const out = applyJsonPatch(doc, [
      { op: 'test', path: '/spec/replicas', value: 2 },
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/metadata/labels/tier', value: 'fe' },
      { op: 'remove', path: '/metadata/labels/app' },
      { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'c' } },
      { op: 'add', path: '/spec/template/spec/containers/0', value: { name: 'z' } },
      { op: 'move', from: '/status/ready', path: '/metadata/ready' },
      { op: 'copy', from: '/metadata/labels', path: '/metadata/annotations' },
    ]) as JsonObject;
    assert.equal(JSON.stringify(doc), before);
    assert.deepEqual(out, {
      metadata: {
        name: 'web',
        labels: { 'a/b': 'x', 'c~d': 'y', tier: 'fe' },
        ready: 1,
        annotations: { 'a/b': 'x', 'c~d': 'y', tier: 'fe' },
      },
      spec: {
        replicas: 3,
        template: { spec: { containers: [{ name: 'z' }, { name: 'a' }, { name: 'b' }, { name: 'c' }] } },
      },
      status: {},
    });
    // The copy is independent of its source.
    const again = applyJsonPatch(out, [
      { op: 'add', path: '/metadata/annotations/x', value: '1' },
    ]) as JsonObject;
    assert.equal((again.metadata as JsonObject).labels, (out.metadata as JsonObject).labels);
  });

  it('shares untouched subtrees', () => {
    const doc = deploy();
    const out = applyJsonPatch(doc, [{ op: 'replace', path: '/spec/replicas', value: 5 }]) as JsonObject;
    assert.equal(out.metadata, doc.metadata);
    assert.equal((out.spec as JsonObject).template, (doc.spec as JsonObject).template);
    assert.notEqual(out.spec, doc.spec);
  });

  it('decodes ~0 and ~1 in pointers and supports negative indices', () => {
    const out = applyJsonPatch(deploy(), [
      { op: 'replace', path: '/metadata/labels/a~1b', value: 'X' },
      { op: 'remove', path: '/metadata/labels/c~0d' },
      { op: 'remove', path: '/spec/template/spec/containers/-1' },
    ]) as JsonObject;
    assert.deepEqual((out.metadata as JsonObject).labels, { app: 'web', 'a/b': 'X' });
    assert.deepEqual(((out.spec as JsonObject).template as JsonObject).spec, { containers: [{ name: 'a' }] });
  });

  it('replace of a missing object key adds it (json-patch v4)', () => {
    const out = applyJsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/foo', value: 1 }]);
    assert.deepEqual(out, { spec: { foo: 1 } });
  });

  it('reports failures with upstream messages as unprocessable', () => {
    expectError(
      deploy(),
      [{ op: 'test', path: '/spec/replicas', value: 3 }],
      'unprocessable',
      'testing value /spec/replicas failed: test failed',
    );
    expectError(
      deploy(),
      [{ op: 'replace', path: '/spec/template/spec/containers/5', value: {} }],
      'unprocessable',
      'replace operation does not apply: doc is missing key: /spec/template/spec/containers/5: missing value',
    );
    expectError(
      deploy(),
      [{ op: 'add', path: '/nope/x', value: 1 }],
      'unprocessable',
      'add operation does not apply: doc is missing path: "/nope/x": missing value',
    );
    expectError(
      deploy(),
      [{ op: 'remove', path: '/spec/foo' }],
      'unprocessable',
      "error in remove for path: '/spec/foo': Unable to remove nonexistent key: foo: missing value",
    );
    expectError(
      deploy(),
      [{ op: 'add', path: '/spec/template/spec/containers/9', value: 1 }],
      'unprocessable',
      "error in add for path: '/spec/template/spec/containers/9': Unable to access invalid index: 9: invalid index referenced",
    );
    expectError(deploy(), [{ op: 'frob', path: '/x' }], 'unprocessable', 'Unexpected kind: frob');
    expectError(deploy(), [{ path: '/x' }], 'unprocessable', 'Unexpected kind: unknown');
  });

  it('rejects undecodable patches as bad requests and too many operations as 413', () => {
    expectError(
      deploy(),
      { op: 'add' },
      'bad-request',
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
    expectError(
      deploy(),
      [1],
      'bad-request',
      'json: cannot unmarshal number into Go value of type jsonpatch.Operation',
    );
    const many = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec/replicas', value: 2 }));
    expectError(
      deploy(),
      many,
      'request-entity-too-large',
      'The allowed maximum operations in a JSON patch is 10000, got 10001',
    );
  });

  it('maps errors to upstream Status', () => {
    try {
      applyJsonPatch(deploy(), [{ op: 'test', path: '/spec/replicas', value: 3 }]);
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof PatchError);
      assert.deepEqual(e.toStatusError().status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: {},
        code: 422,
      });
    }
  });
});
