import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cidrContains, parseCIDRSloppy } from './cidr.js';

test('parseCIDRSloppy masks the address and accepts IPv4 leading zeros', () => {
  assert.deepEqual(parseCIDRSloppy('10.1.2.3/16'), {
    ip: Uint8Array.from([10, 1, 0, 0]),
    ones: 16,
    bits: 32,
  });
  assert.deepEqual(parseCIDRSloppy('010.001.0.0/8')?.ip, Uint8Array.from([10, 0, 0, 0]));
  assert.equal(parseCIDRSloppy('2001:db8::/32')?.bits, 128);
  for (const bad of ['10.0.0.0', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8x', 'x/8', '::/129', '10.0.0.0/-1']) {
    assert.equal(parseCIDRSloppy(bad), undefined, bad);
  }
});

test('cidrContains follows Go IPNet.Contains across families', () => {
  const net = parseCIDRSloppy('10.0.0.0/8')!;
  assert.ok(cidrContains(net, parseCIDRSloppy('10.2.0.0/16')!.ip));
  assert.ok(!cidrContains(net, parseCIDRSloppy('11.0.0.0/16')!.ip));
  assert.ok(!cidrContains(net, parseCIDRSloppy('2001:db8::/64')!.ip));
  const v6 = parseCIDRSloppy('2001:db8::/32')!;
  assert.ok(cidrContains(v6, parseCIDRSloppy('2001:db8:1::/48')!.ip));
  assert.ok(!cidrContains(v6, parseCIDRSloppy('10.0.0.0/8')!.ip));
  // An IPv4-mapped IPv6 network compares as IPv4.
  const mapped = parseCIDRSloppy('::ffff:10.0.0.0/104')!;
  assert.ok(cidrContains(mapped, parseCIDRSloppy('10.1.0.0/16')!.ip));
});
