import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLabelSelector } from '../machinery/labels/selector.js';
import type { JsonObject } from '../util/json.js';
import { InformerStore } from './informer-store.js';
import { Lister } from './lister.js';
import { obj } from './testing/fake-list-watch.js';

const labeled = (ns: string, name: string, labels: Record<string, string>): JsonObject => {
  const o = obj(ns, name, '1');
  (o['metadata'] as JsonObject)['labels'] = labels;
  return o;
};

test('listers read by namespace, name and label selector', () => {
  const s = new InformerStore();
  s.upsert(labeled('a', 'web-1', { app: 'web' }));
  s.upsert(labeled('a', 'db-1', { app: 'db' }));
  s.upsert(labeled('b', 'web-2', { app: 'web' }));
  s.upsert(obj('', 'node-1', '1'));
  const l = new Lister(s);
  const names = (list: JsonObject[]): string[] =>
    list.map((o) => (o['metadata'] as { name: string }).name).sort();
  assert.deepEqual(names(l.list(parseLabelSelector('app=web'))), ['web-1', 'web-2']);
  assert.deepEqual(names(l.namespace('a').list()), ['db-1', 'web-1']);
  assert.deepEqual(names(l.namespace('a').list(parseLabelSelector('app in (db)'))), ['db-1']);
  assert.equal(l.namespace('b').get('web-2')?.['metadata'] !== undefined, true);
  assert.equal(l.namespace('b').get('web-1'), undefined);
  assert.equal(l.get('node-1') !== undefined, true);
  assert.equal(l.list().length, 4);
});
