import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goFixed6 } from './go-fixed.js';

test('six decimals like Go %f', () => {
  assert.equal(goFixed6(4), '4.000000');
  assert.equal(goFixed6(2.5), '2.500000');
  assert.equal(goFixed6(1 / 3), '0.333333');
  assert.equal(goFixed6(2 / 3), '0.666667');
  assert.equal(goFixed6(1234567.0000004), '1234567.000000');
  assert.equal(goFixed6(0), '0.000000');
  assert.equal(goFixed6(-1.5), '-1.500000');
  assert.equal(goFixed6(1e21), '1000000000000000000000.000000');
});

test('exact ties round half to even (toFixed would round up)', () => {
  assert.equal(goFixed6(129 / 128), '1.007812');
  assert.equal(goFixed6(131 / 128), '1.023438');
  assert.equal(goFixed6(1 / 128), '0.007812');
});

test('non-finite values as Go prints them', () => {
  assert.equal(goFixed6(NaN), 'NaN');
  assert.equal(goFixed6(Infinity), '+Inf');
  assert.equal(goFixed6(-Infinity), '-Inf');
});
