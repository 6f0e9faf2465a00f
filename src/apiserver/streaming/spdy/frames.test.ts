import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { constants, createDeflate, inflateSync } from 'node:zlib';
import { FrameReader, FrameWriter } from './frames.js';
import { HeaderBlockReader, HeaderBlockWriter, SpdyProtocolError, headerDictionary } from './header-block.js';

function adler32(b: Buffer): number {
  let a = 1;
  let s = 0;
  for (const x of b) {
    a = (a + x) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}

/** A header block as the Go framer compresses it: zlib level 9 with the dictionary, sync-flushed. */
async function goStyleBlocks(blocks: Buffer[]): Promise<Buffer[]> {
  const z = createDeflate({ level: 9, dictionary: headerDictionary });
  const out: Buffer[] = [];
  for (const b of blocks) {
    const chunks: Buffer[] = [];
    const onData = (c: Buffer): number => chunks.push(c);
    z.on('data', onData);
    z.write(b);
    await new Promise<void>((resolve) => z.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    z.off('data', onData);
    out.push(Buffer.concat(chunks));
  }
  z.close();
  return out;
}

function rawBlock(pairs: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number): void => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    parts.push(b);
  };
  u32(pairs.length);
  for (const [k, v] of pairs) {
    u32(Buffer.byteLength(k));
    parts.push(Buffer.from(k));
    u32(Buffer.byteLength(v));
    parts.push(Buffer.from(v));
  }
  return Buffer.concat(parts);
}

describe('SPDY/3 header blocks', () => {
  test('the dictionary is the draft’s: 1,423 bytes, Adler-32 0xe3c6a7c2 (the DICTID of Go’s zlib header)', () => {
    assert.equal(headerDictionary.byteLength, 1423);
    assert.equal(adler32(headerDictionary), 0xe3c6a7c2);
  });

  test('reads blocks compressed as client-go compresses them, one zlib stream per connection', async () => {
    const [first, second] = await goStyleBlocks([
      rawBlock([['streamtype', 'error']]),
      rawBlock([
        ['streamtype', 'stdout'],
        ['x-multi', 'a\0b'],
      ]),
    ]);
    const r = new HeaderBlockReader();
    assert.deepEqual([...r.read(first!)], [['streamtype', ['error']]]);
    assert.deepEqual(
      [...r.read(second!)],
      [
        ['streamtype', ['stdout']],
        ['x-multi', ['a', 'b']],
      ],
    );
  });

  test('writes blocks any zlib reader decodes in order, each ending as a sync flush does', () => {
    const w = new HeaderBlockWriter();
    const a = w.write(new Map([['streamtype', ['error']]]));
    const b = w.write(new Map());
    assert.deepEqual([...b.subarray(-4)], [0x00, 0x00, 0xff, 0xff]);
    const all = inflateSync(Buffer.concat([a, b]), { finishFlush: constants.Z_SYNC_FLUSH });
    assert.deepEqual(all, Buffer.concat([rawBlock([['streamtype', 'error']]), rawBlock([])]));
  });

  test('garbage and truncated blocks are protocol errors', () => {
    assert.throws(() => new HeaderBlockReader().read(Buffer.from('not zlib at all')), SpdyProtocolError);
    const w = new HeaderBlockWriter();
    const ok = w.write(new Map([['a', ['b']]]));
    // A block that claims one pair but holds none.
    const bad = Buffer.from(ok);
    assert.throws(() => new HeaderBlockReader().read(bad.subarray(0, bad.byteLength - 9)), SpdyProtocolError);
  });
});

describe('SPDY/3 frames', () => {
  test('round trip: SYN_STREAM, SYN_REPLY, data with FIN, RST_STREAM, PING, GOAWAY', () => {
    const w = new FrameWriter();
    const bytes = Buffer.concat([
      w.synStream(1, new Map([['streamtype', ['stdin']]])),
      w.synReply(1, new Map()),
      w.data(1, Buffer.from('hello'), true),
      w.rstStream(3, 5),
      w.ping(7),
      w.goAway(3, 0),
    ]);
    const r = new FrameReader();
    // Split anywhere: frames come out once complete.
    const frames = [...r.push(bytes.subarray(0, 11)), ...r.push(bytes.subarray(11))];
    assert.deepEqual(
      frames.map((f) => f.type),
      ['synStream', 'synReply', 'data', 'rstStream', 'ping', 'goAway'],
    );
    assert.deepEqual(frames[0], {
      type: 'synStream',
      streamId: 1,
      associatedTo: 0,
      fin: false,
      headers: new Map([['streamtype', ['stdin']]]),
    });
    assert.deepEqual(frames[2], { type: 'data', streamId: 1, fin: true, data: Buffer.from('hello') });
    assert.deepEqual(frames[3], { type: 'rstStream', streamId: 3, status: 5 });
    assert.deepEqual(frames[4], { type: 'ping', id: 7 });
    assert.deepEqual(frames[5], { type: 'goAway', lastGoodStreamId: 3, status: 0 });
  });

  test('another SPDY version, or a frame over 1 MiB, is refused', () => {
    const v2 = Buffer.from('8002000600000004000000010', 'hex');
    assert.throws(() => new FrameReader().push(v2.subarray(0, 12)), /SPDY version 2/);
    const huge = Buffer.from([0, 0, 0, 1, 0, 0x20, 0, 0]);
    assert.throws(() => new FrameReader().push(huge), /frame of 2097152 bytes/);
  });
});
