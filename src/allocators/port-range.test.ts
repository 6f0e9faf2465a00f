import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './errors.js';
import { parsePortRange, PortRangeAllocator } from './port-range.js';

const first = () => 0n;

describe('PortRangeAllocator (NW-03, upstream portallocator)', () => {
  it('parses ranges as net.ParsePortRange', () => {
    assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768 });
    assert.deepEqual(parsePortRange('100+9'), { base: 100, size: 10 });
    assert.deepEqual(parsePortRange('80'), { base: 80, size: 1 });
    for (const bad of ['', 'a-b', '5-1', '1-70000', '-1']) assert.equal(parsePortRange(bad), undefined);
  });

  it('defaults to 30000-32767, no static band without the gate', () => {
    const a = new PortRangeAllocator({ random: first });
    assert.equal(a.range, '30000-32767');
    assert.equal(a.staticBand, 0);
    assert.equal(a.allocateNext(), 30000);
    assert.equal(a.free, 2767);
  });

  it('ServiceNodePortStaticSubrange: the upper band first, then the lower', () => {
    const a = new PortRangeAllocator({ range: '30000-30099', staticSubrange: true, random: first });
    assert.equal(a.staticBand, 16);
    const got: number[] = [];
    for (let i = 0; i < 100; i++) got.push(a.allocateNext());
    assert.deepEqual(
      got.slice(0, 84),
      Array.from({ length: 84 }, (_, i) => 30016 + i),
    );
    assert.deepEqual(
      got.slice(84),
      Array.from({ length: 16 }, (_, i) => 30000 + i),
    );
    assert.throws(
      () => a.allocateNext(),
      (e: unknown) => e instanceof RangeFullError,
    );
  });

  it('specific ports: errors as upstream', () => {
    const a = new PortRangeAllocator();
    a.allocate(30080);
    assert.throws(
      () => a.allocate(30080),
      (e: unknown) =>
        e instanceof AlreadyAllocatedError && e.message === 'provided port is already allocated',
    );
    assert.throws(
      () => a.allocate(8080),
      (e: unknown) =>
        e instanceof NotInRangeError &&
        e.message === 'provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    a.release(30080);
    assert.equal(a.has(30080), false);
  });

  it('exhausts a small range', () => {
    const a = new PortRangeAllocator({ range: '40000-40003' });
    const got = new Set([a.allocateNext(), a.allocateNext(), a.allocateNext(), a.allocateNext()]);
    assert.equal(got.size, 4);
    assert.throws(() => a.allocateNext(), RangeFullError);
  });
});
