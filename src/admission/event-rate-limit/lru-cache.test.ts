import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LruCache } from './lru-cache.js';

test('drops the least recently used entry past its size; reads refresh recency', () => {
  const c = new LruCache<string, number>(2);
  c.add('a', 1);
  c.add('b', 2);
  assert.equal(c.get('a'), 1);
  c.add('c', 3);
  assert.equal(c.get('b'), undefined);
  assert.equal(c.get('a'), 1);
  assert.equal(c.get('c'), 3);
  c.add('c', 4);
  assert.equal(c.size, 2);
  assert.equal(c.get('c'), 4);
});
