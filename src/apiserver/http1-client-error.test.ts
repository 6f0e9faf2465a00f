import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { onHttp1ClientError } from './http1-client-error.js';

/** Writes `head`, then keeps sending `trailing` bytes; resolves with all that came back. */
function exchange(port: number, head: string, trailing = 0): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    socket.write(head);
    if (trailing > 0) socket.write(Buffer.alloc(trailing, 'a'));
  });
}

describe('HTTP/1.1 requests node refuses are answered as Go answers them', () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer({ maxHeaderSize: 16 * 1024 }, (_req, res) => res.end('ok'));
    server.headersTimeout = 300;
    server.requestTimeout = 300;
    Object.assign(server, { connectionsCheckingInterval: 100 });
    server.on('clientError', onHttp1ClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  it('headers over the limit: 431, read to the end even while the client goes on sending', async () => {
    // 4 MiB more after the oversized head: closing with them unread would reset the connection.
    const text = await exchange(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(32 * 1024)}`,
      4 << 20,
    );
    assert.equal(
      text,
      'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n' +
        'Connection: close\r\n\r\n431 Request Header Fields Too Large',
    );
  });

  it('a malformed request: 400 Bad Request, then the connection closed', async () => {
    const text = await exchange(port, 'NOT HTTP\r\n\r\n');
    assert.equal(
      text,
      'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request',
    );
  });

  it('a head not finished in time: closed without an answer', async () => {
    assert.equal(await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n'), '');
  });

  it('any other error (a TLS handshake that timed out): closed without an answer', async () => {
    // Reported on the connection before it sent anything: an answer written then would reach it.
    const handshakeTimeout = Object.assign(new Error('TLS handshake timeout'), {
      code: 'ERR_TLS_HANDSHAKE_TIMEOUT',
    });
    server.once('connection', (socket: Socket) => onHttp1ClientError(handshakeTimeout, socket));
    assert.equal(await exchange(port, ''), '');
  });

  it('a well-formed request on the same server is served', async () => {
    const text = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok$/);
  });
});
