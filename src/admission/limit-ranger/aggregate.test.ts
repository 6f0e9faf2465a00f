import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregateMessage } from './aggregate.js';

test('aggregate text as upstream utilerrors', () => {
  assert.equal(aggregateMessage([]), undefined);
  assert.equal(aggregateMessage(['a']), 'a');
  assert.equal(aggregateMessage(['a', 'b']), '[a, b]');
  assert.equal(aggregateMessage(['a', 'b', 'a']), '[a, b]');
  assert.equal(aggregateMessage(['a', 'a']), 'a');
});
