import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AllocationMap } from './allocation-map.js';

describe('AllocationMap.fork (copy-on-write view for one write attempt)', () => {
  it('reads through to the parent and leaves it unchanged', () => {
    const base = new AllocationMap({ max: 8n });
    base.allocate(1n);
    base.allocate(2n);
    const f = base.fork();
    assert.equal(f.has(1n), true);
    assert.equal(f.allocate(1n), false, 'taken in the parent');
    assert.equal(f.allocate(3n), true);
    f.release(2n);
    assert.equal(f.has(2n), false);
    assert.equal(f.count, 2);
    assert.deepEqual(f.offsets(), [1n, 3n]);
    assert.deepEqual(base.offsets(), [1n, 2n], 'the parent is untouched');
    assert.equal(f.allocate(2n), true, 'released in the fork, taken again');
    assert.deepEqual(f.offsets(), [1n, 2n, 3n]);
  });

  it('allocateNext skips what the parent holds and fills the range', () => {
    const base = new AllocationMap({ max: 4n });
    base.allocate(0n);
    base.allocate(3n);
    const f = base.fork();
    const got = [f.allocateNext(), f.allocateNext()].sort();
    assert.deepEqual(got, [1n, 2n]);
    assert.equal(f.allocateNext(), undefined, 'full');
    assert.equal(base.count, 2);
  });

  it('sees later changes of the parent it has not overridden', () => {
    const base = new AllocationMap({ max: 8n });
    const f = base.fork();
    base.allocate(5n);
    assert.equal(f.has(5n), true);
  });
});
