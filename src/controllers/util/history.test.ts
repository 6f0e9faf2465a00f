import assert from 'node:assert/strict';
import { test } from 'node:test';
import { controllerRevisionName, fnv32, hashRevisionData, sortedJson, templatePatch } from './history.js';

test('fnv32 is FNV-1 (Go hash/fnv New32)', () => {
  assert.equal(fnv32(Buffer.from('')), 0x811c9dc5);
  assert.equal(fnv32(Buffer.from('a')), 0x050c5d7e);
  assert.equal(fnv32(Buffer.from('foobar')), 0x31f0b262);
});

test('sortedJson sorts keys at every level as Go marshals maps', () => {
  assert.equal(
    sortedJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } }),
    '{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}',
  );
});

test('the revision patch replaces the template; the hash changes with the collision count', () => {
  const data = templatePatch({ spec: { template: { metadata: { labels: { a: 'b' } } } } });
  assert.equal(
    sortedJson(data),
    '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":"b"}}}}}',
  );
  assert.notEqual(hashRevisionData(data, 0), hashRevisionData(data, 1));
  assert.match(hashRevisionData(data, 0), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.equal(controllerRevisionName('x'.repeat(300), 'h').length, 225);
});
