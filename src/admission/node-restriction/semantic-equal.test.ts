import assert from 'node:assert/strict';
import { test } from 'node:test';
import { semanticDiff, semanticEqual } from './semantic-equal.js';

test('absent, null, empty arrays and empty maps are equal; values are compared deeply', () => {
  assert.equal(semanticEqual(undefined, []), true);
  assert.equal(semanticEqual(null, {}), true);
  assert.equal(semanticEqual({ a: [], b: null }, {}), true);
  assert.equal(semanticEqual({ a: [{ k: 'x' }] }, { a: [{ k: 'x' }] }), true);
  assert.equal(semanticEqual({ a: [{ k: 'x' }] }, { a: [{ k: 'y' }] }), false);
  assert.equal(semanticEqual([1], [1, 2]), false);
  assert.equal(semanticEqual('a', 'a'), true);
});

test('the diff names each differing path', () => {
  assert.deepEqual(semanticDiff({ spec: { a: '1', b: ['x'] } }, { spec: { a: '2', c: true } }), [
    '-spec.a: "1"',
    '+spec.a: "2"',
    '-spec.b: ["x"]',
    '+spec.c: true',
  ]);
  assert.deepEqual(semanticDiff({ l: [1, 2] }, { l: [1, 3] }), ['-l[1]: 2', '+l[1]: 3']);
});
