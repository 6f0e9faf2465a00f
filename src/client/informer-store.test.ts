import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InformerStore } from './informer-store.js';
import { keyFor, objectKey } from './object-meta.js';
import { obj } from './testing/fake-list-watch.js';

test('keys are namespace/name, or name when cluster-scoped', () => {
  assert.equal(objectKey(obj('ns', 'a', '1')), 'ns/a');
  assert.equal(objectKey(obj('', 'node-1', '1')), 'node-1');
  assert.equal(keyFor('ns', 'a'), 'ns/a');
  assert.equal(keyFor('', 'a'), 'a');
});

test('upsert and delete return the replaced state', () => {
  const s = new InformerStore();
  assert.equal(s.upsert(obj('ns', 'a', '1')), undefined);
  assert.deepEqual(s.upsert(obj('ns', 'a', '2')), obj('ns', 'a', '1'));
  assert.deepEqual(s.get('ns/a'), obj('ns', 'a', '2'));
  assert.deepEqual(s.delete(obj('ns', 'a', '3')), obj('ns', 'a', '2'));
  assert.equal(s.delete(obj('ns', 'a', '3')), undefined);
  assert.equal(s.size, 0);
});

test('replace reports adds, changed objects and deletions with their last known state', () => {
  const s = new InformerStore();
  s.replace([obj('ns', 'keep', '1'), obj('ns', 'change', '2'), obj('ns', 'gone', '3', { data: { x: 'y' } })]);
  const r = s.replace([obj('ns', 'keep', '1'), obj('ns', 'change', '5'), obj('other', 'new', '6')]);
  assert.deepEqual(r.added, [obj('other', 'new', '6')]);
  assert.deepEqual(r.updated, [{ old: obj('ns', 'change', '2'), current: obj('ns', 'change', '5') }]);
  assert.deepEqual(r.deleted, [obj('ns', 'gone', '3', { data: { x: 'y' } })]);
  assert.deepEqual(s.keys().sort(), ['ns/change', 'ns/keep', 'other/new']);
  assert.deepEqual(
    s.list().map((o) => objectKey(o)),
    s.keys(),
  );
});
