import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addToIp, addressIn, formatCidr, parseCidr, parseIp, subnet, subnetCount } from './cidr.js';

describe('cidr', () => {
  it('parses and prints both families', () => {
    assert.equal(formatCidr(parseCidr('10.244.3.7/16')), '10.244.0.0/16');
    assert.equal(formatCidr(parseCidr('fd00:10:244::/56')), 'fd00:10:244::/56');
    assert.equal(formatCidr(parseCidr('2001:DB8:0:0:1:0:0:1/128')), '2001:db8::1:0:0:1/128');
    assert.throws(() => parseCidr('10.0.0.0'), /invalid CIDR address: 10.0.0.0/);
    assert.throws(() => parseCidr('10.0.0.256/8'), /invalid CIDR/);
    assert.equal(parseIp('::ffff:1.2.3.4')?.value, 0xffff01020304n);
    assert.equal(parseIp('1::2::3'), undefined);
  });

  it('hands out node subnets and addresses', () => {
    const v4 = parseCidr('10.244.0.0/16');
    assert.equal(subnetCount(v4, 24), 256);
    assert.equal(formatCidr(subnet(v4, 24, 3)), '10.244.3.0/24');
    assert.throws(() => subnet(v4, 24, 256), /has no \/24 subnet number 256/);
    assert.equal(addressIn(subnet(v4, 24, 3), 2), '10.244.3.2');
    const v6 = parseCidr('fd00:10:244::/56');
    assert.equal(formatCidr(subnet(v6, 64, 3)), 'fd00:10:244:3::/64');
    assert.equal(addressIn(subnet(v6, 64, 3), 2), 'fd00:10:244:3::2');
    assert.equal(addToIp('172.18.0.255', 1), '172.18.1.0');
    assert.equal(addToIp('fc00::ffff', 2), 'fc00::1:1');
  });
});
