import assert from 'node:assert/strict';
import { Duplex } from 'node:stream';
import { describe, test } from 'node:test';
import { SpdyServerConnection } from './connection.js';
import type { SpdyStream } from './connection.js';
import { FrameReader, FrameWriter } from './frames.js';
import type { SpdyFrame } from './frames.js';

/** A socket whose written bytes the test reads back as frames. */
function fakeSocket(): { socket: Duplex; written: () => SpdyFrame[] } {
  const chunks: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { socket, written: () => new FrameReader().push(Buffer.concat(chunks)) };
}

describe('the server side of a SPDY connection', () => {
  test('replies to each client stream, hands over its data to FIN, echoes pings, refuses even ids', async () => {
    const { socket, written } = fakeSocket();
    const streams: SpdyStream[] = [];
    new SpdyServerConnection(socket, Buffer.alloc(0), {
      onStream: (s) => {
        s.reply();
        streams.push(s);
      },
    });
    const w = new FrameWriter();
    socket.push(
      Buffer.concat([
        w.synStream(1, new Map([['streamtype', ['stdin']]])),
        w.data(1, Buffer.from('ab')),
        w.data(1, Buffer.from('c'), true),
        w.ping(9),
        w.synStream(2, new Map()),
      ]),
    );
    await new Promise((r) => setImmediate(r));
    assert.equal(streams.length, 1);
    assert.equal(streams[0]!.header('streamtype'), 'stdin');
    const got: string[] = [];
    for await (const chunk of streams[0]!.data()) got.push(chunk.toString());
    assert.deepEqual(got, ['ab', 'c']);
    assert.deepEqual(
      written().map((f) => f.type),
      ['synReply', 'ping', 'rstStream'],
    );
  });

  test('a client opening more than 32 streams gets the rest refused', async () => {
    const { socket, written } = fakeSocket();
    new SpdyServerConnection(socket, Buffer.alloc(0), { onStream: (s) => s.reply() });
    const w = new FrameWriter();
    socket.push(Buffer.concat(Array.from({ length: 40 }, (_, i) => w.synStream(2 * i + 1, new Map()))));
    await new Promise((r) => setImmediate(r));
    const frames = written();
    assert.equal(frames.filter((f) => f.type === 'synReply').length, 32);
    assert.deepEqual(
      frames.filter((f) => f.type === 'rstStream').map((f) => f.type === 'rstStream' && f.status),
      Array.from({ length: 8 }, () => 3),
    );
  });

  test('a frame of another SPDY version cuts the connection with GOAWAY', async () => {
    const { socket, written } = fakeSocket();
    let closedWith: Error | undefined;
    const conn = new SpdyServerConnection(socket, Buffer.alloc(0), {
      onStream: () => assert.fail('no stream'),
      onClose: (err) => (closedWith = err),
    });
    socket.push(Buffer.from('800200010000000a00000001000000000000', 'hex'));
    await new Promise((r) => setImmediate(r));
    assert.equal(conn.closed, true);
    assert.match(closedWith?.message ?? '', /SPDY version 2/);
    assert.deepEqual(
      written().map((f) => f.type),
      ['goAway'],
    );
  });
});
