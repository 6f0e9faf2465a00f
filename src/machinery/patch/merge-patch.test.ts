import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../util/json.js';
import { applyMergePatch } from './merge-patch.js';
import { PatchError } from './errors.js';

describe('applyMergePatch', () => {
  it('merges objects, deletes nulls, replaces everything else', () => {
    const doc: JsonObject = {
      metadata: { name: 'x', labels: { a: '1', b: '2' } },
      spec: { list: [1, 2], n: 1, keep: { deep: true } },
    };
    const before = JSON.stringify(doc);
    const out = applyMergePatch(doc, {
      metadata: { labels: { a: null, c: '3' } },
      spec: { list: [3], n: { now: 'obj', gone: null } },
      extra: { x: null, y: 1 },
    }) as JsonObject;
    assert.equal(JSON.stringify(doc), before);
    assert.deepEqual(out, {
      metadata: { name: 'x', labels: { b: '2', c: '3' } },
      spec: { list: [3], n: { now: 'obj' }, keep: { deep: true } },
      extra: { y: 1 },
    });
    assert.equal((out.spec as JsonObject).keep, (doc.spec as JsonObject).keep);
  });

  it('drops nulls inside new arrays of objects but keeps null elements', () => {
    const out = applyMergePatch({}, { a: [{ x: null, y: 1 }, null] });
    assert.deepEqual(out, { a: [{ y: 1 }, null] });
  });

  it('rejects null and scalar patches; an array replaces the document', () => {
    for (const p of [null, 1, 'x']) {
      assert.throws(
        () => applyMergePatch({}, p),
        (e: unknown) =>
          e instanceof PatchError && e.kind === 'bad-request' && e.message === 'Invalid JSON Patch',
      );
    }
    assert.deepEqual(applyMergePatch({ a: 1 }, [1, 2]), [1, 2]);
  });
});
