import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../util/json.js';
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

test('#28 an update with an unchanged spec shares the stored spec object; a changed one does not', () => {
  const s = new InformerStore();
  const pod = (rv: string, image: string, phase: string): JsonObject => ({
    metadata: { namespace: 'ns', name: 'p', resourceVersion: rv },
    spec: { containers: [{ name: 'c', image }], nodeName: 'n1' },
    status: { phase },
  });
  const first = pod('1', 'a', 'Pending');
  s.upsert(first);
  const running = pod('2', 'a', 'Running');
  assert.equal(s.upsert(running), first);
  assert.equal(running['spec'], first['spec']);
  assert.deepEqual(s.get('ns/p'), pod('2', 'a', 'Running'));
  const changed = pod('3', 'b', 'Running');
  s.upsert(changed);
  assert.notEqual(changed['spec'], first['spec']);
  assert.deepEqual(s.get('ns/p'), pod('3', 'b', 'Running'));
  // Objects without a spec (ConfigMaps) are stored as they come.
  const cm = { metadata: { namespace: 'ns', name: 'c', resourceVersion: '4' }, data: { k: 'v' } };
  s.upsert(cm);
  const cm2 = { metadata: { namespace: 'ns', name: 'c', resourceVersion: '5' }, data: { k: 'v' } };
  s.upsert(cm2);
  assert.equal(s.get('ns/c'), cm2);
  assert.deepEqual(Object.keys(cm2), ['metadata', 'data']);
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

test('indexes follow upserts, deletes and replaces; namespace is built in', () => {
  const s = new InformerStore();
  const owned = (uid: string): JsonObject => ({ spec: { owner: uid } });
  s.addIndex('owner', (o) => {
    const owner = (o['spec'] as { owner?: string } | undefined)?.owner;
    return owner === undefined ? [] : [owner];
  });
  s.upsert(obj('ns', 'a', '1', owned('u1')));
  s.upsert(obj('ns', 'b', '1', owned('u1')));
  s.upsert(obj('other', 'c', '1', owned('u2')));
  const names = (list: JsonObject[]): string[] =>
    list.map((o) => (o['metadata'] as { name: string }).name).sort();
  assert.deepEqual(names(s.byIndex('owner', 'u1')), ['a', 'b']);
  assert.deepEqual(names(s.byIndex('namespace', 'other')), ['c']);
  // Re-filed when an object changes, dropped when it goes.
  s.upsert(obj('ns', 'b', '2', owned('u2')));
  assert.deepEqual(names(s.byIndex('owner', 'u1')), ['a']);
  assert.deepEqual(names(s.byIndex('owner', 'u2')), ['b', 'c']);
  s.delete(obj('ns', 'a', '3'));
  assert.deepEqual(s.byIndex('owner', 'u1'), []);
  s.replace([obj('ns', 'z', '9', owned('u1'))]);
  assert.deepEqual(names(s.byIndex('owner', 'u1')), ['z']);
  assert.deepEqual(s.byIndex('owner', 'u2'), []);
  assert.deepEqual(names(s.byIndex('namespace', 'ns')), ['z']);
  // An index added later covers what is already stored.
  s.addIndex('name', (o) => [(o['metadata'] as { name: string }).name]);
  assert.equal(s.byIndex('name', 'z').length, 1);
  assert.throws(() => s.byIndex('nope', 'x'), /index nope does not exist/);
  assert.throws(() => s.addIndex('name', () => []), /index name already exists/);
});
