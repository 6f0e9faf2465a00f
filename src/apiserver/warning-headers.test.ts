/** Unit: Warning header values as kube-apiserver's warning recorder and net.NewWarningHeader make them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warningHeaders } from './response.js';

/** A header value as a client reads it: the bytes, as UTF-8. */
function read(value: string): string {
  return Buffer.from(value, 'latin1').toString('utf8');
}

describe('warningHeaders', () => {
  it('quotes escaping only quotes and backslashes, deduplicates, drops control characters', () => {
    const out = warningHeaders(['a "b" \\c', 'a "b" \\c', 'bell\u0007', 'c1\u0085', '', 'lone \ud800', 'ok']);
    assert.deepEqual(out.map(read), ['299 - "a \\"b\\" \\\\c"', '299 - "ok"']);
  });

  it('writes text past Latin-1 as its UTF-8 bytes, one character per byte', () => {
    const [value] = warningHeaders(['unknown field "spec.ünï😀"']);
    assert.ok(value !== undefined && /^[\x20-\xff]*$/.test(value));
    assert.equal(read(value), '299 - "unknown field \\"spec.ünï😀\\""');
  });

  it('cuts every text to 256 code points once the total passes 4096, and stops adding at 4096 again', () => {
    const long = (i: number) => `${i}:${'x'.repeat(1000)}`;
    const out = warningHeaders(Array.from({ length: 40 }, (_, i) => long(i)));
    // Each warning cut to 256 code points; they are added until 4096 are written (16 of them).
    assert.equal(out.length, 16);
    for (const [i, v] of out.entries()) assert.equal(v, `299 - "${long(i).slice(0, 256)}"`);
    // Under the limit nothing is cut.
    assert.deepEqual(warningHeaders([long(1), long(2)]), [`299 - "${long(1)}"`, `299 - "${long(2)}"`]);
  });
});
