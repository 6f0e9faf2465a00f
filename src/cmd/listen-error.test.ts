import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { listenErrorMessage } from './listen-error.js';

/** The error Node gives for listening on a port another server holds. */
async function inUseError(): Promise<unknown> {
  const first = createServer();
  await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
  const port = (first.address() as AddressInfo).port;
  const second = createServer();
  const err = await new Promise<unknown>((resolve) => {
    second.once('error', resolve);
    second.listen(port, '127.0.0.1');
  });
  first.close();
  return { err, port };
}

test('a taken port is one line naming the address and the way out; other errors are not listen errors', async () => {
  const { err, port } = (await inUseError()) as { err: unknown; port: number };
  assert.equal(
    listenErrorMessage(err),
    `cannot listen on 127.0.0.1:${port}: another process already uses it; stop it, or pick another port with --secure-port (0 picks a free one)`,
  );
  assert.equal(listenErrorMessage(new Error('boom')), undefined);
  assert.equal(listenErrorMessage('listen'), undefined);
});
