import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combinedHealth } from './combined-health.js';
import { NodePortAddresses, interfaceAddresses, invalidNodePortAddress } from './node-port-addresses.js';

test('no --nodeport-addresses (or none of the family): every local address, localhost included', () => {
  for (const cidrs of [[], ['fd00::/64']]) {
    const v4 = new NodePortAddresses('IPv4', cidrs);
    assert.equal(v4.matchAll, true);
    assert.deepEqual(v4.cidrs, ['0.0.0.0/0']);
    assert.equal(v4.containsIPv4Loopback, true);
  }
  assert.deepEqual(new NodePortAddresses('IPv6', ['10.0.0.0/8']).cidrs, ['::/0']);
});

test('CIDRs of the family select the node addresses inside them; the zero CIDR wins', () => {
  const v4 = new NodePortAddresses('IPv4', ['10.244.1.0/24', '192.0.2.0/24', 'fd00:1::/64']);
  assert.equal(v4.matchAll, false);
  assert.equal(v4.containsIPv4Loopback, false);
  assert.deepEqual(
    v4.nodeIPs(['127.0.0.1', '10.244.1.1', '10.244.2.1', '192.0.2.9', 'fd00:1::1', '10.244.1.1']),
    ['10.244.1.1', '192.0.2.9'],
  );
  const v6 = new NodePortAddresses('IPv6', ['10.244.1.0/24', 'fd00:1::/64']);
  assert.deepEqual(v6.nodeIPs(['10.244.1.1', 'fd00:1::1', 'fd00:2::1']), ['fd00:1::1']);
  assert.equal(new NodePortAddresses('IPv4', ['127.0.0.0/8', '10.0.0.0/8']).containsIPv4Loopback, true);
  const zero = new NodePortAddresses('IPv4', ['10.0.0.0/8', '0.0.0.0/0']);
  assert.equal(zero.matchAll, true);
  assert.deepEqual(zero.cidrs, ['0.0.0.0/0']);
});

test('the flag takes CIDRs only', () => {
  assert.equal(invalidNodePortAddress(['10.0.0.0/8', 'fd00::/64']), undefined);
  assert.equal(invalidNodePortAddress(['10.0.0.0/8', '10.1.2.3']), '"10.1.2.3": must be a valid CIDR');
});

test("this host's interface addresses include loopback", async () => {
  assert.ok((await interfaceAddresses(undefined, new AbortController().signal)).includes('127.0.0.1'));
});

test('a dual-stack proxy is healthy while both families are; last updated by the later', () => {
  const h = combinedHealth([
    { health: () => ({ healthy: true, lastUpdated: 1000, now: 5000 }) },
    { health: () => ({ healthy: true, lastUpdated: 3000, now: 5000 }) },
  ]).health();
  assert.deepEqual(h, { healthy: true, lastUpdated: 3000, now: 5000 });
  const sick = combinedHealth([
    { health: () => ({ healthy: true, lastUpdated: undefined, now: 5000 }) },
    { health: () => ({ healthy: false, lastUpdated: 3000, now: 5000 }) },
  ]).health();
  assert.equal(sick.healthy, false);
});
