import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { duplexPair } from './duplex-pair.js';

describe('duplexPair', () => {
  it('carries bytes both ways and ends the reader when the writer ends', async () => {
    const [a, b] = duplexPair();
    const got: Buffer[] = [];
    b.on('data', (c: Buffer) => got.push(c));
    a.write('hello ');
    a.end('world');
    await once(b, 'end');
    assert.equal(Buffer.concat(got).toString(), 'hello world');
    const back: Buffer[] = [];
    a.on('data', (c: Buffer) => back.push(c));
    b.end('bye');
    await once(a, 'end');
    assert.equal(Buffer.concat(back).toString(), 'bye');
  });

  it('ends the other side when one end is destroyed; writes after that fail', async () => {
    const [a, b] = duplexPair();
    b.resume();
    const ended = once(b, 'end');
    a.destroy();
    await ended;
    const failed = once(b, 'error');
    b.write('late');
    const [err] = (await failed) as [NodeJS.ErrnoException];
    assert.equal(err.code, 'EPIPE');
  });
});
