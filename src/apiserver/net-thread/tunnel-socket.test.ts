import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetDown } from './protocol.js';
import { responseWindowBytes } from './protocol.js';
import { TunnelSocket } from './tunnel-socket.js';

test('a tunnel relays bytes both ways, holds writes past the window until acknowledged, and relays end and destroy', async () => {
  const sent: NetDown[] = [];
  const socket = new TunnelSocket(3, (m) => sent.push(m), '10.0.0.1');
  assert.equal(socket.remoteAddress, '10.0.0.1');
  const read: Buffer[] = [];
  socket.on('data', (c: Buffer) => read.push(c));
  socket.received(new TextEncoder().encode('from the client'));
  await new Promise((r) => setImmediate(r));
  assert.equal(Buffer.concat(read).toString(), 'from the client');

  let written = 0;
  socket.write(new Uint8Array(responseWindowBytes), () => written++);
  socket.write(new Uint8Array(10), () => written++);
  await new Promise((r) => setImmediate(r));
  // The first write filled the window: its callback waits, and so does the second write.
  assert.equal(written, 0);
  assert.equal(sent.length, 1);
  socket.acknowledged(responseWindowBytes);
  await new Promise((r) => setImmediate(r));
  assert.equal(written, 2);
  assert.equal(sent.length, 2);

  socket.end();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent.at(-1), { t: 'sock', id: 3, end: true });
  socket.destroy();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent.at(-1), { t: 'sock', id: 3, destroy: true });
});
