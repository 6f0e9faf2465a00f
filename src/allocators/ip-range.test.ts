import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './errors.js';
import { IPRangeAllocator } from './ip-range.js';

const first = () => 0n;

describe('IPRangeAllocator (NW-03, upstream ipallocator/bitmap.go)', () => {
  it('excludes the network and broadcast addresses of IPv4 ranges', () => {
    const a = new IPRangeAllocator({ cidr: '192.168.1.0/28' });
    assert.equal(a.size, 14n);
    assert.equal(a.staticBand, 0n);
    assert.equal(a.contains('192.168.1.0'), false);
    assert.equal(a.contains('192.168.1.15'), false);
    assert.equal(a.contains('192.168.1.1'), true);
    assert.equal(a.contains('192.168.1.14'), true);
    const got = new Set<string>();
    for (let i = 0; i < 14; i++) got.add(a.allocateNext());
    assert.equal(got.size, 14);
    assert.throws(
      () => a.allocateNext(),
      (e: unknown) => e instanceof RangeFullError && e.message === 'range is full',
    );
  });

  it('IPv6 excludes only the network address and caps the legacy range at 65,536', () => {
    const small = new IPRangeAllocator({ cidr: 'fd00::/124' });
    assert.equal(small.size, 15n);
    assert.equal(small.contains('fd00::f'), true);
    const big = new IPRangeAllocator({ cidr: 'fd00:10:96::/64' });
    assert.equal(big.size, 65535n);
    assert.equal(big.staticBand, 256n);
    assert.equal(big.contains('fd00:10:96::1:0'), false);
    const wide = new IPRangeAllocator({ cidr: 'fd00:10:96::/64', ipv6MaxAddresses: 1n << 64n });
    assert.equal(wide.size, (1n << 64n) - 1n);
    assert.equal(wide.contains('fd00:10:96:0:ffff:ffff:ffff:ffff'), true);
  });

  it('dynamic allocation takes the upper band first, then the lower (KEP-3070)', () => {
    // /27: 30 usable, static band 16 → offsets 0-15 (.1-.16) static, 16-29 (.17-.30) dynamic.
    const a = new IPRangeAllocator({ cidr: '10.0.0.0/27', random: first });
    assert.equal(a.staticBand, 16n);
    const order: string[] = [];
    for (let i = 0; i < 30; i++) order.push(a.allocateNext());
    assert.deepEqual(
      order.slice(0, 14),
      Array.from({ length: 14 }, (_, i) => `10.0.0.${17 + i}`),
    );
    assert.deepEqual(
      order.slice(14),
      Array.from({ length: 16 }, (_, i) => `10.0.0.${1 + i}`),
    );
    assert.throws(() => a.allocateNext(), RangeFullError);
  });

  it('the scan starts at a random point and wraps around', () => {
    const a = new IPRangeAllocator({ cidr: '10.0.0.0/24', random: (n) => n - 1n });
    assert.equal(a.allocateNext(), '10.0.0.254');
    assert.equal(a.allocateNext(), '10.0.0.17');
  });

  it('specific allocation: errors as upstream', () => {
    const a = new IPRangeAllocator({ cidr: '10.96.0.0/12' });
    a.allocate('10.96.0.10');
    assert.equal(a.has('10.96.0.10'), true);
    assert.throws(
      () => a.allocate('10.96.0.10'),
      (e: unknown) => e instanceof AlreadyAllocatedError && e.message === 'provided IP is already allocated',
    );
    assert.throws(
      () => a.allocate('10.0.0.1'),
      (e: unknown) =>
        e instanceof NotInRangeError &&
        e.message === 'provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    assert.throws(() => a.allocate('fd00::1'), NotInRangeError);
    a.release('10.96.0.10');
    assert.equal(a.has('10.96.0.10'), false);
    a.allocate('10.96.0.10');
    assert.deepEqual(a.allocated(), ['10.96.0.10']);
  });

  it('a full dynamic band still leaves the static band to specific allocation', () => {
    const a = new IPRangeAllocator({ cidr: '10.0.0.0/27', random: first });
    for (let i = 0; i < 14; i++) a.allocateNext();
    a.allocate('10.0.0.5');
    assert.equal(a.allocateNext(), '10.0.0.1');
    assert.equal(a.used, 16);
    assert.equal(a.free, 14n);
  });
});
