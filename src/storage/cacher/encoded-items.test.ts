import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { EncodedItems, EncodingBudget, maxItemBytes } from './encoded-items.js';

function pod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' } };
}

/** Encodings over a set of held objects the test controls. */
function items(limitBytes: number, budget = new EncodingBudget(limitBytes)) {
  const held = new Set<KubeObject>();
  const enc = new EncodedItems({ budget, holds: (o) => held.has(o) });
  return { enc, held, budget };
}

describe('EncodedItems: list encodings kept while the cache holds their object', () => {
  it('keeps an encoding of a held object and answers it', () => {
    const { enc, held, budget } = items(1024);
    const a = pod('a');
    held.add(a);
    enc.remember(a, '{"a":1}');
    assert.equal(enc.get(a), '{"a":1}');
    assert.equal(enc.bytes, 7);
    assert.equal(budget.usedBytes, 7);
  });

  it('does not keep an encoding of an object the cache no longer holds (a list raced an update)', () => {
    const { enc } = items(1024);
    const stale = pod('a');
    enc.remember(stale, '{"a":1}');
    assert.equal(enc.get(stale), undefined);
    assert.equal(enc.size, 0);
  });

  it('forgets one object, and everything on clear, giving the budget back', () => {
    const { enc, held, budget } = items(1024);
    const [a, b] = [pod('a'), pod('b')];
    held.add(a).add(b);
    enc.remember(a, 'aaaa');
    enc.remember(b, 'bbbbbb');
    enc.forget(a);
    assert.equal(enc.get(a), undefined);
    assert.equal(enc.get(b), 'bbbbbb');
    assert.equal(budget.usedBytes, 6);
    enc.forget(a); // twice is nothing
    assert.equal(budget.usedBytes, 6);
    enc.clear();
    assert.equal(enc.get(b), undefined);
    assert.equal(budget.usedBytes, 0);
    assert.equal(enc.bytes, 0);
  });

  it('drops its oldest entries to stay within the budget', () => {
    const { enc, held, budget } = items(10);
    const [a, b, c] = [pod('a'), pod('b'), pod('c')];
    held.add(a).add(b).add(c);
    enc.remember(a, 'aaaa');
    enc.remember(b, 'bbbb');
    enc.remember(c, 'cccc');
    assert.equal(enc.get(a), undefined);
    assert.equal(enc.get(b), 'bbbb');
    assert.equal(enc.get(c), 'cccc');
    assert.equal(budget.usedBytes, 8);
  });

  it('shares one budget between caches: a cache cannot evict another', () => {
    const budget = new EncodingBudget(10);
    const one = items(10, budget);
    const two = items(10, budget);
    const [a, b] = [pod('a'), pod('b')];
    one.held.add(a);
    two.held.add(b);
    one.enc.remember(a, 'a'.repeat(8));
    two.enc.remember(b, 'bbbb');
    assert.equal(one.enc.get(a), 'a'.repeat(8));
    assert.equal(two.enc.get(b), undefined, 'the budget is held by the other cache');
    one.enc.clear();
    two.enc.remember(b, 'bbbb');
    assert.equal(two.enc.get(b), 'bbbb');
    assert.equal(budget.usedBytes, 4);
  });

  it('does not keep encodings past maxItemBytes or the whole budget', () => {
    const { enc, held } = items(maxItemBytes * 4);
    const [big, small] = [pod('big'), pod('small')];
    held.add(big).add(small);
    enc.remember(big, 'x'.repeat(maxItemBytes + 1));
    assert.equal(enc.get(big), undefined);
    const tiny = items(3);
    tiny.held.add(small);
    tiny.enc.remember(small, 'xxxx');
    assert.equal(tiny.enc.get(small), undefined);
  });

  it('keeps the first encoding of an object (a second remember changes nothing)', () => {
    const { enc, held, budget } = items(100);
    const a = pod('a');
    held.add(a);
    enc.remember(a, 'one');
    enc.remember(a, 'three');
    assert.equal(enc.get(a), 'one');
    assert.equal(budget.usedBytes, 3);
  });
});
