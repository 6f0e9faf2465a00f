import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailedPodsBackoff } from './failed-pods-backoff.js';

test('#7: failed daemon pods back off 1 s doubling to the cap; an entry idle for twice the cap is forgotten', () => {
  const b = new FailedPodsBackoff(1000, 8000);
  assert.equal(b.inBackoff('k', 0), false);
  b.next('k', 0);
  assert.equal(b.get('k'), 1000);
  assert.equal(b.inBackoff('k', 999), true);
  assert.equal(b.inBackoff('k', 1000), false);
  b.next('k', 1000);
  assert.equal(b.get('k'), 2000);
  b.next('k', 3000);
  b.next('k', 7000);
  b.next('k', 15000);
  assert.equal(b.get('k'), 8000);
  assert.equal(b.inBackoff('k', 22999), true);
  // Expired after 2 × 8 s without an update: starts over.
  assert.equal(b.inBackoff('k', 15000 + 16001), false);
  b.next('k', 15000 + 16001);
  assert.equal(b.get('k'), 1000);
});
