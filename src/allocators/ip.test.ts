import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatCIDR, formatIP, parseCIDR, parseIP } from './ip.js';

describe('IP text', () => {
  it('round-trips canonical forms', () => {
    for (const s of [
      '10.96.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '::',
      '::1',
      'fd00:10:96::a',
      '2001:db8::1:0:0:1',
      '1:2:3:4:5:6:7:8',
      '::ffff:10.0.0.1',
    ]) {
      assert.equal(formatIP(parseIP(s)!), s === '::ffff:10.0.0.1' ? '10.0.0.1' : s);
    }
  });
  it('canonicalizes', () => {
    assert.equal(formatIP(parseIP('FD00:0:0:0::0001')!), 'fd00::1');
    assert.equal(formatIP(parseIP('2001:db8:0:0:1:0:0:1')!), '2001:db8::1:0:0:1');
    assert.equal(formatIP(parseIP('::10.1.2.3')!), '::a01:203');
  });
  it('refuses malformed addresses', () => {
    for (const s of ['', '1.2.3', '1.2.3.256', '1::2::3', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', 'x']) {
      assert.equal(parseIP(s), undefined, s);
    }
  });
  it('parses CIDRs to their network', () => {
    const c = parseCIDR('10.96.3.4/12')!;
    assert.equal(formatCIDR(c), '10.96.0.0/12');
    assert.equal(c.size, 1n << 20n);
    assert.equal(formatCIDR(parseCIDR('fd00:10:96::5/108')!), 'fd00:10:96::/108');
    assert.equal(parseCIDR('10.0.0.0/33'), undefined);
  });
});
