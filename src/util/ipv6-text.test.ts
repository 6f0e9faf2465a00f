import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatIPv6Groups } from './ipv6-text.js';

test('RFC 5952 text of IPv6 groups', () => {
  assert.equal(formatIPv6Groups([0xfd00, 0, 0, 0, 0, 0, 0, 5]), 'fd00::5');
  assert.equal(formatIPv6Groups([0, 0, 0, 0, 0, 0, 0, 0]), '::');
  assert.equal(formatIPv6Groups([0, 0, 0, 0, 0, 0, 0, 1]), '::1');
  assert.equal(formatIPv6Groups([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1]), '2001:db8:0:1::1');
  // One zero group is not compressed; the first of two equal runs is.
  assert.equal(formatIPv6Groups([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1]), '2001:db8:0:1:1:1:1:1');
  assert.equal(formatIPv6Groups([0x2001, 0, 0, 1, 0, 0, 1, 1]), '2001::1:0:0:1:1');
  assert.equal(formatIPv6Groups([1, 0, 0, 0, 0, 0, 0, 0]), '1::');
});
