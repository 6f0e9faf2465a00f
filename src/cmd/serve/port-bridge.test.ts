import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import type { InProcessCall, InProcessRequestInit, InProcessResponse } from '../../apiserver/in-process.js';
import { PortChannel, portAckBytes, portHighWaterMark } from '../../client/port-transport.js';
import type { UserInfo } from '../../machinery/user.js';
import { servePort } from './port-bridge.js';

const user: UserInfo = { name: 'system:apiserver', uid: 'u', groups: ['system:masters'], extra: {} };

/** A response whose chunks the test pushes; it records cancellation. */
class Scripted implements InProcessResponse {
  readonly status: number;
  cancelled = false;
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #wake: (() => void) | undefined;
  /** Bytes the bridge has taken from this response (it reads only as the port allows). */
  taken = 0;

  constructor(status: number) {
    this.status = status;
  }

  push(text: string | Uint8Array): void {
    this.#chunks.push(typeof text === 'string' ? Buffer.from(text) : text);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  cancel(): void {
    this.cancelled = true;
    this.#wake?.();
  }

  get body(): AsyncIterable<Uint8Array> {
    return this.#read();
  }

  takeWritten(): { chunk: Uint8Array | undefined; ended: boolean } {
    const chunks = this.#chunks.splice(0);
    for (const c of chunks) this.taken += c.byteLength;
    return { chunk: chunks.length === 0 ? undefined : Buffer.concat(chunks), ended: this.#ended };
  }

  async *#read(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const c = this.#chunks.shift();
      if (c !== undefined) {
        this.taken += c.byteLength;
        yield c;
        continue;
      }
      if (this.#ended) return;
      if (this.cancelled) throw new Error('cut');
      await new Promise<void>((r) => (this.#wake = r));
      this.#wake = undefined;
    }
  }
}

/** A request as the fake server saw it, and whether the bridge cancelled it. */
interface Call {
  readonly init: Omit<InProcessRequestInit, 'signal'>;
  cancelled: boolean;
}

function setUp(
  answer: (init: Omit<InProcessRequestInit, 'signal'>, call: Call) => Promise<InProcessResponse>,
) {
  const seen: Omit<InProcessRequestInit, 'signal'>[] = [];
  const calls: Call[] = [];
  const ch = new MessageChannel();
  // What crossed the port each way, by message type.
  const sent = { toServer: [] as string[], toClient: [] as string[] };
  ch.port1.on('message', (m: { t: string }) => sent.toServer.push(m.t));
  ch.port2.on('message', (m: { t: string }) => sent.toClient.push(m.t));
  const startInProcess = (init: Omit<InProcessRequestInit, 'signal'>): InProcessCall => {
    seen.push(init);
    const call: Call = { init, cancelled: false };
    calls.push(call);
    let answered: InProcessResponse | undefined;
    const closers: (() => void)[] = [];
    const response = answer(init, call).then((r) => {
      if (call.cancelled) throw new Error('the in-process request ended before a response');
      answered = r;
      return r;
    });
    return {
      response,
      cancel: () => {
        call.cancelled = true;
        answered?.cancel();
        for (const c of closers.splice(0)) c();
      },
      onClose: (listener) => closers.push(listener),
    };
  };
  const bridge = servePort(ch.port1, { startInProcess }, user);
  const channel = new PortChannel(ch.port2);
  const transport = channel.transport({ userAgent: 'test-agent' });
  const close = (): void => {
    transport.close();
    channel.close();
    bridge.close();
    ch.port1.close();
    ch.port2.close();
  };
  return { seen, calls, transport, channel, close, sent };
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  let s = '';
  for await (const c of body) s += Buffer.from(c).toString('utf8');
  return s;
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('a request crosses the port: method, path, headers with the user agent, body; the status and body come back', async () => {
  const { seen, transport, close, sent } = setUp(() => {
    const r = new Scripted(201);
    r.push('{"kind":');
    r.push('"Pod"}');
    r.end();
    return Promise.resolve(r);
  });
  try {
    const res = await transport.send({
      method: 'POST',
      path: '/api/v1/namespaces/default/pods',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    assert.equal(res.status, 201);
    assert.equal(await readAll(res.body), '{"kind":"Pod"}');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.method, 'POST');
    assert.equal(seen[0]?.path, '/api/v1/namespaces/default/pods');
    assert.equal(seen[0]?.body, '{"a":1}');
    assert.deepEqual(seen[0]?.headers, { 'content-type': 'application/json', 'user-agent': 'test-agent' });
    assert.equal(transport.stats().streams, 0, 'a finished response is forgotten');
    await tick();
    assert.deepEqual(
      sent,
      { toServer: ['req'], toClient: ['head'] },
      'an answer whole with its head is one message',
    );
  } finally {
    close();
  }
});

test("a streamed answer is acknowledged in batches of the reader's bytes, not per chunk, and not after its end", async () => {
  const server = new Scripted(200);
  const { transport, close, sent } = setUp(() => Promise.resolve(server));
  try {
    const res = await transport.send({ method: 'GET', path: '/api/v1/pods?watch=1', headers: {} });
    const reading = readAll(res.body);
    const chunk = Buffer.alloc(1024, 'x');
    for (let i = 0; i < 1000; i++) {
      server.push(chunk);
      if (i % 50 === 0) await tick();
    }
    server.end();
    assert.equal((await reading).length, 1000 * 1024);
    await tick();
    const acks = sent.toServer.filter((t) => t === 'ack').length;
    assert.ok(acks >= 1 && acks <= Math.floor((1000 * 1024) / portAckBytes), `${acks} acknowledgements`);
    assert.ok(sent.toClient.filter((t) => t === 'data').length > acks, 'fewer acknowledgements than chunks');
  } finally {
    close();
  }
});

test('a server failure before the head rejects the request with its message', async () => {
  const { transport, close } = setUp(() =>
    Promise.reject(new Error('the in-process request ended before a response')),
  );
  try {
    await assert.rejects(
      transport.send({ method: 'GET', path: '/x', headers: {} }),
      /ended before a response/,
    );
  } finally {
    close();
  }
});

test('flow control: the bridge stops reading a response past the high-water mark until the reader takes chunks', async () => {
  const server = new Scripted(200);
  const { transport, close } = setUp(() => Promise.resolve(server));
  try {
    const res = await transport.send({ method: 'GET', path: '/api/v1/pods?watch=1', headers: {} });
    const chunk = new Uint8Array(256 * 1024);
    for (let i = 0; i < 12; i++) server.push(chunk);
    for (let i = 0; i < 50; i++) await tick();
    assert.ok(
      server.taken <= portHighWaterMark + chunk.byteLength,
      `taken ${server.taken} with nothing read`,
    );
    assert.ok(server.taken >= portHighWaterMark, 'up to the mark is sent ahead');
    const it = res.body[Symbol.asyncIterator]();
    let read = 0;
    while (read < 12 * chunk.byteLength) {
      const r = await it.next();
      assert.equal(r.done, false);
      read += r.value?.byteLength ?? 0;
    }
    assert.equal(server.taken, 12 * chunk.byteLength, 'reading let the rest through');
    server.end();
    assert.equal((await it.next()).done, true);
  } finally {
    close();
  }
});

test("the reader's cancel reaches the server's response; aborting before the head rejects and cancels the server's request", async () => {
  const server = new Scripted(200);
  let slow: Call | undefined;
  let release: (() => void) | undefined;
  const { transport, close } = setUp((init, call) => {
    if (init.path === '/slow') {
      slow = call;
      return new Promise((resolve) => (release = () => resolve(new Scripted(200))));
    }
    return Promise.resolve(server);
  });
  try {
    const res = await transport.send({ method: 'GET', path: '/watch', headers: {} });
    server.push('event\n');
    const it = res.body[Symbol.asyncIterator]();
    assert.equal(Buffer.from((await it.next()).value ?? []).toString(), 'event\n');
    await it.return?.();
    for (let i = 0; i < 10 && !server.cancelled; i++) await tick();
    assert.equal(server.cancelled, true, 'leaving the loop cancels the server side');

    const ac = new AbortController();
    const pending = transport.send({ method: 'GET', path: '/slow', headers: {}, signal: ac.signal });
    for (let i = 0; i < 10 && slow === undefined; i++) await tick();
    ac.abort(new Error('gave up'));
    await assert.rejects(pending, /gave up/);
    for (let i = 0; i < 10 && slow?.cancelled !== true; i++) await tick();
    assert.equal(slow?.cancelled, true, "the server's request was cancelled");
    release?.();
  } finally {
    close();
  }
});

test('closing the channel fails what is in flight; later requests fail at once', async () => {
  const server = new Scripted(200);
  const { transport, channel, close } = setUp(() => Promise.resolve(server));
  try {
    const res = await transport.send({ method: 'GET', path: '/watch', headers: {} });
    const reading = readAll(res.body);
    channel.close();
    await assert.rejects(reading, /cut off|closed|cancelled/);
    await assert.rejects(transport.send({ method: 'GET', path: '/x', headers: {} }), /closed/);
  } finally {
    close();
  }
});
