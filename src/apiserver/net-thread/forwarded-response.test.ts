import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ForwardedRequest } from './forwarded-request.js';
import { ForwardedResponse } from './forwarded-response.js';
import { responseWindowBytes } from './protocol.js';
import type { ForwardedHead, NetDown } from './protocol.js';

const head: ForwardedHead = {
  t: 'req',
  id: 7,
  method: 'GET',
  url: '/api',
  httpVersion: '2.0',
  headers: { accept: 'application/json' },
  rawHeaders: ['accept', 'application/json'],
  remoteAddress: '127.0.0.1',
  certificate: null,
  ended: true,
};

function pair(): { res: ForwardedResponse; sent: NetDown[]; dropped: () => number } {
  const sent: NetDown[] = [];
  let drops = 0;
  const req = new ForwardedRequest(head, () => drops++);
  const res = new ForwardedResponse(req, head.id, (m) => sent.push(m));
  return { res, sent, dropped: () => drops };
}

test('an answer written at once is one message: status, headers, body, end', () => {
  const { res, sent } = pair();
  res.setHeader('Content-Type', 'application/json');
  res.writeHead(201, { 'Audit-Id': 'x' });
  assert.equal(res.headersSent, true);
  assert.equal(sent.length, 0);
  let finished = 0;
  res.once('finish', () => finished++);
  res.end('{}');
  assert.equal(finished, 1);
  assert.equal(sent.length, 1);
  const m = sent[0] as Extract<NetDown, { t: 'res' }>;
  assert.equal(m.status, 201);
  assert.deepEqual(m.headers, { 'content-type': 'application/json', 'audit-id': 'x' });
  assert.equal(Buffer.from(m.chunk ?? []).toString(), '{}');
  assert.equal(m.end, true);
});

test('write() holds back past the window; drain follows the acknowledgements', () => {
  const { res, sent } = pair();
  res.writeHead(200);
  const half = new Uint8Array(responseWindowBytes / 2);
  assert.equal(res.write(half), true);
  assert.equal(res.write(half), false);
  let drained = 0;
  res.on('drain', () => drained++);
  res.acknowledged(half.byteLength / 2);
  assert.equal(drained, 1);
  assert.equal(res.write(new Uint8Array(10)), true);
  // Only the first message carries the head.
  assert.equal((sent[0] as { status?: number }).status, 200);
  assert.equal((sent[1] as { status?: number }).status, undefined);
});

test('a client gone mid-answer ends its work; destroy() asks for a reset; the request drops its connection', () => {
  const gone = pair();
  let closed = 0;
  gone.res.once('close', () => closed++);
  gone.res.write('partial');
  gone.res.clientGone();
  assert.equal(closed, 1);
  assert.equal(gone.res.write('more'), false);
  assert.equal(gone.sent.length, 1);

  const reset = pair();
  reset.res.write('partial');
  reset.res.destroy();
  assert.deepEqual(reset.sent.at(-1), { t: 'reset', id: 7 });

  const drop = pair();
  drop.res.req.socket.destroy();
  drop.res.req.socket.destroy();
  assert.equal(drop.dropped(), 1);
  assert.equal(drop.res.req.socket.destroyed, true);
});
