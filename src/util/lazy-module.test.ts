import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazyModule } from './lazy-module.js';

describe('lazyModule', () => {
  it('imports once, then hands the module out synchronously', async () => {
    let imports = 0;
    const m = lazyModule('the answer', () => {
      imports++;
      return Promise.resolve({ answer: 42 });
    });
    assert.equal(m.loaded(), false);
    assert.throws(() => m.get(), /^Error: the answer is not loaded: await its load\(\) before using it$/);
    const first = m.pending();
    assert.ok(first instanceof Promise);
    assert.equal(m.load(), first);
    await first;
    assert.equal(m.loaded(), true);
    assert.equal(m.pending(), undefined);
    assert.equal(m.get().answer, 42);
    await m.load();
    assert.equal(imports, 1);
  });

  it('a failed import fails every wait and never counts as loaded', async () => {
    const m = lazyModule('broken', () => Promise.reject(new Error('no such module')));
    await assert.rejects(m.load(), /no such module/);
    await assert.rejects(m.pending() ?? Promise.resolve(), /no such module/);
    assert.equal(m.loaded(), false);
  });
});
