import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { StringInterner } from './string-interner.js';

/** A string with the same text that is not the same heap string (JSON.parse makes new ones). */
const copy = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

describe('StringInterner', () => {
  it('gives two objects decoded apart one copy of each repeated string, in objects and arrays', () => {
    const interner = new StringInterner();
    const text = JSON.stringify({
      spec: { containers: [{ image: 'registry.k8s.io/pause:3.9', args: ['a', 'b'] }] },
      status: { phase: 'Running' },
    });
    const a = JSON.parse(text) as { spec: { containers: { image: string; args: string[] }[] } };
    const b = JSON.parse(text) as typeof a;
    interner.intern(a);
    interner.intern(b);
    assert.deepEqual(a, JSON.parse(text));
    assert.deepEqual(b, JSON.parse(text));
    assert.equal(interner.size, 4);
    assert.equal(
      interner.string(copy('registry.k8s.io/pause:3.9')),
      interner.string('registry.k8s.io/pause:3.9'),
    );
  });

  it('frees the copies it replaced (which copy a string is cannot be seen but in the heap)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const interner = new StringInterner();
    const text = JSON.stringify({ image: `registry.example/${'i'.repeat(100)}:1` });
    const objs = Array.from({ length: 20_000 }, () => JSON.parse(text) as { image: string });
    gc();
    const before = getHeapStatistics().used_heap_size;
    for (const o of objs) interner.intern(o);
    gc();
    const freed = before - getHeapStatistics().used_heap_size;
    // 19,999 strings of 118 characters: about 2.6 MB.
    assert.ok(freed > 2_000_000, `freed ${freed} bytes`);
    assert.equal(objs.length, 20_000);
  });

  it('skips a member that is the very object the previous version had under that key', () => {
    const interner = new StringInterner();
    const text = JSON.stringify({
      kind: 'Pod',
      spec: { image: 'a', args: ['x', 'y'] },
      status: { phase: 'Running' },
    });
    const previous = JSON.parse(text) as Record<string, unknown>;
    interner.intern(previous);
    const next = { ...(JSON.parse(text) as Record<string, unknown>), spec: previous['spec'] };
    const before = interner.hits;
    interner.intern(next, previous);
    // kind and phase looked up again; the shared spec's three strings not.
    assert.equal(interner.hits, before + 2);
    interner.intern(JSON.parse(text), previous);
    assert.equal(interner.hits, before + 2 + 5);
  });

  it('leaves long strings out of the table and frozen objects as they are', () => {
    const interner = new StringInterner();
    const long = 'x'.repeat(129);
    const obj = { long, frozen: Object.freeze({ s: copy('kept') }), short: copy('kept') };
    interner.intern(obj);
    assert.equal(obj.long, long);
    assert.equal(interner.size, 1);
    assert.equal(interner.hits, 0);
    assert.deepEqual(obj.frozen, { s: 'kept' });
  });

  it('keeps strings that keep coming when a generation is full, and stays bounded', () => {
    const interner = new StringInterner({ generationSize: 4 });
    interner.string('image');
    for (let i = 0; i < 100; i++) {
      interner.string(`uid-${i}`);
      if (i % 2 === 0) {
        const before = interner.hits;
        interner.string(copy('image'));
        assert.equal(interner.hits, before + 1, `image found at ${i}`);
      }
    }
    assert.ok(interner.size <= 8, `size ${interner.size}`);
    // A uid seen long ago is no longer held.
    const before = interner.hits;
    interner.string('uid-0');
    assert.equal(interner.hits, before);
  });
});
