import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { configMapsInfo, namespacesInfo, secretsInfo } from '../apis/core/v1/resources.js';
import type { KubeObject } from '../machinery/object.js';
import { isStreamableList, wholeAnswerBytes, writeJsonListStream } from './list-stream.js';
import { negotiateObject } from './negotiate.js';
import { representList } from './representation.js';
import type { ServerResponseLike } from './response.js';

/** A response that records what it is given and asks for a drain every `window` bytes. */
class RecordingResponse extends EventEmitter implements ServerResponseLike {
  headersSent = false;
  statusCode: number | undefined;
  headers: Record<string, string | string[]> = {};
  readonly chunks: Buffer[] = [];
  ended = false;
  destroyed = false;
  writes = 0;
  #queued = 0;
  readonly #window: number;

  constructor(window = Infinity) {
    super();
    this.#window = window;
  }

  writeHead(code: number, headers: Record<string, string | string[]> = {}): this {
    assert.equal(this.headersSent, false);
    this.statusCode = code;
    this.headers = { ...this.headers, ...headers };
    this.headersSent = true;
    return this;
  }

  setHeader(name: string, value: string | string[]): this {
    this.headers[name] = value;
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    assert.ok(this.headersSent && !this.ended);
    assert.ok(typeof chunk !== 'string', 'writes Buffers, not strings');
    this.writes++;
    this.chunks.push(Buffer.from(chunk));
    this.#queued += chunk.byteLength;
    if (this.#queued < this.#window) return true;
    setImmediate(() => {
      this.#queued = 0;
      this.emit('drain');
    });
    return false;
  }

  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined) this.write(chunk);
    this.ended = true;
    return this;
  }

  destroy(): void {
    this.destroyed = true;
  }

  get body(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function secret(name: string, data: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '42',
      creationTimestamp: '2026-11-30T00:00:00Z',
      labels: { app: name },
    },
    type: 'Opaque',
    data,
    ...extra,
  };
}

const json = negotiateObject('application/json');
const metadata = negotiateObject('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
const table = { convertor: undefined, includeObject: 'Metadata' };

async function streamed(body: unknown, window = Infinity): Promise<RecordingResponse> {
  assert.ok(isStreamableList(body));
  const res = new RecordingResponse(window);
  await writeJsonListStream(res, 200, body, { signal: new AbortController().signal });
  assert.ok(res.ended);
  return res;
}

const big = 'x'.repeat(3 * wholeAnswerBytes);
const tricky =
  'quote " backslash \\ slash / tab \t nl \n cr \r nul \u0000 bell \u0007 del \u007f ' +
  'ls \u2028 ps \u2029 é ü 日本語 emoji 😀 lone \ud800 surrogate \udfff <html>&amp;';

const lists: Array<[string, unknown]> = [
  ['empty', representList(secretsInfo, [], { resourceVersion: '7' }, json, table)],
  ['empty, no resourceVersion', representList(secretsInfo, [], {}, json, table)],
  [
    'one item',
    representList(secretsInfo, [secret('a', { k: 'dg==' })], { resourceVersion: '8' }, json, table),
  ],
  [
    'unicode and escapes',
    representList(
      configMapsInfo,
      [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'uni', namespace: 'default', annotations: { [tricky]: tricky } },
          data: { [tricky]: tricky, ключ: 'значение', empty: '' },
        },
        secret('b', { k: tricky }),
      ],
      { resourceVersion: '9' },
      json,
      table,
    ),
  ],
  [
    'paged: continue and remainingItemCount',
    representList(
      secretsInfo,
      [secret('c', { k: 'YQ==' }), secret('d', { k: 'Yg==' })],
      {
        resourceVersion: '10',
        continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAsInN0YXJ0IjoiZFx1MDAwMCJ9',
        remainingItemCount: 3,
      },
      json,
      table,
    ),
  ],
  [
    'cluster-scoped',
    representList(
      namespacesInfo,
      [
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'default' },
          spec: { finalizers: ['kubernetes'] },
          status: { phase: 'Active' },
        },
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'kube-system' },
          spec: {},
          status: { phase: 'Terminating' },
        },
      ],
      { resourceVersion: '11' },
      json,
      table,
    ),
  ],
  [
    'PartialObjectMetadataList',
    representList(
      secretsInfo,
      [secret('e', { k: big }), secret('f', { k: tricky })],
      { resourceVersion: '12' },
      metadata,
      table,
    ),
  ],
  [
    'undefined and numbers',
    {
      kind: 'XList',
      apiVersion: 'v1',
      skipped: undefined,
      metadata: {},
      items: [1, 'two', null, undefined, { a: undefined, b: 1.5e300, c: -0 }],
    },
  ],
  [
    'large (streamed)',
    representList(
      secretsInfo,
      Array.from({ length: 40 }, (_, i) => secret(`big-${i}`, { k: big, u: tricky })),
      { resourceVersion: '13', remainingItemCount: 0 },
      json,
      table,
    ),
  ],
];

for (const [name, list] of lists) {
  test(`streamed list is JSON.stringify(list) + newline: ${name}`, async () => {
    const expected = `${JSON.stringify(list)}\n`;
    for (const window of [Infinity, 1, 64 * 1024]) {
      const res = await streamed(list, window);
      assert.equal(res.body, expected);
      assert.ok(Buffer.concat(res.chunks).equals(Buffer.from(expected, 'utf8')));
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json');
      assert.equal(res.headers['cache-control'], 'no-cache, private');
      const size = Buffer.byteLength(expected);
      // Small answers keep their Content-Length; large ones stream without one.
      assert.equal(res.headers['content-length'], size <= wholeAnswerBytes ? String(size) : undefined);
    }
  });
}

test('a large list is written in chunks of about 64 KiB, never whole', async () => {
  const list = lists.find(([n]) => n === 'large (streamed)')?.[1];
  const res = await streamed(list, 1);
  assert.ok(res.writes >= 5, `${res.writes} writes`);
  // A chunk closes once it passes 64 KiB: at most one item (12 KiB) over it.
  assert.ok(res.chunks.every((c) => c.byteLength < 64 * 1024 + big.length + 4096));
});

test('only compact lists whose last field is a plain items array are streamed', () => {
  assert.equal(isStreamableList({ kind: 'List', items: [] }), true);
  assert.equal(isStreamableList({ items: [], metadata: {} }), false);
  assert.equal(isStreamableList({ kind: 'Table', rows: [] }), false);
  assert.equal(isStreamableList({ kind: 'List', items: null }), false);
  assert.equal(isStreamableList({ kind: 'List', items: [], toJSON: () => ({}) }), false);
  assert.equal(isStreamableList([]), false);
  assert.equal(isStreamableList(null), false);
  assert.equal(isStreamableList({ items: [] }), true);
});

test('an envelope without other fields', async () => {
  const res = await streamed({ items: [{ a: 1 }, { b: big }] });
  assert.equal(res.body, `${JSON.stringify({ items: [{ a: 1 }, { b: big }] })}\n`);
});

test('the request signal aborting mid-stream cuts the response instead of ending it', async () => {
  const list = lists.find(([n]) => n === 'large (streamed)')?.[1];
  assert.ok(isStreamableList(list));
  const res = new RecordingResponse(1);
  const ac = new AbortController();
  res.once('drain', () => ac.abort(new Error('deadline')));
  await writeJsonListStream(res, 200, list, { signal: ac.signal });
  assert.equal(res.destroyed, true);
  assert.equal(res.ended, false);
  assert.ok(res.body.length < JSON.stringify(list).length);
});

test('the response closing while waiting for drain stops the stream', async () => {
  const list = lists.find(([n]) => n === 'large (streamed)')?.[1];
  assert.ok(isStreamableList(list));
  const res = new RecordingResponse(1);
  res.write = function (chunk: string | Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk));
    setImmediate(() => this.emit('close'));
    return false;
  };
  await writeJsonListStream(res, 200, list, { signal: new AbortController().signal });
  assert.equal(res.ended, false);
  assert.equal(res.destroyed, true);
});

test('an item failing to serialize before the headers throws (a Status can still be sent)', async () => {
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  const res = new RecordingResponse();
  await assert.rejects(
    writeJsonListStream(
      res,
      200,
      { kind: 'List', items: [cyclic] },
      { signal: new AbortController().signal },
    ),
    TypeError,
  );
  assert.equal(res.headersSent, false);
});

test('over HTTP/1.1 a large list arrives chunked, byte for byte', async () => {
  const list = lists.find(([n]) => n === 'large (streamed)')?.[1];
  assert.ok(isStreamableList(list));
  const server = createServer((_req, res) => {
    void writeJsonListStream(res, 200, list, { signal: new AbortController().signal, req: _req });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
          .on('error', reject)
          .end();
      },
    );
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['transfer-encoding'], 'chunked');
    assert.equal(headers['content-length'], undefined);
    assert.ok(body.equals(Buffer.from(`${JSON.stringify(list)}\n`, 'utf8')));
  } finally {
    server.close();
  }
});

/** Encodings of a test's own: what it keeps, what it was asked to keep. */
function keptEncodings(kept: Map<KubeObject, string>) {
  const remembered: KubeObject[] = [];
  return {
    remembered,
    encodings: {
      get: (o: KubeObject) => kept.get(o),
      remember: (o: KubeObject, text: string) => {
        remembered.push(o);
        kept.set(o, text);
      },
    },
  };
}

test('#28 an item whose source object has a kept encoding is written from it; others are encoded and offered', async () => {
  const objects = Array.from({ length: 40 }, (_, i) => secret(`s-${i}`, { k: 'x'.repeat(200) }));
  const list = representList(secretsInfo, objects, { resourceVersion: '11' }, json, table);
  assert.ok(isStreamableList(list));
  const expected = JSON.stringify(list) + '\n';
  const kept = new Map<KubeObject, string>();
  const first = keptEncodings(kept);
  const res = new RecordingResponse(8 * 1024);
  const signal = new AbortController().signal;
  await writeJsonListStream(res, 200, list, { signal, sources: { objects, encodings: first.encodings } });
  assert.equal(res.body, expected);
  assert.equal(first.remembered.length, 40, 'every item offered once');
  assert.equal(kept.get(objects[3]!), JSON.stringify(list.items[3]));
  // The second answer takes the kept texts: same bytes, nothing offered again.
  const second = keptEncodings(kept);
  const again = new RecordingResponse(8 * 1024);
  await writeJsonListStream(again, 200, list, { signal, sources: { objects, encodings: second.encodings } });
  assert.equal(again.body, expected);
  assert.equal(second.remembered.length, 0);
  // A small answer (sent whole, with its length) takes them too.
  const small = representList(secretsInfo, objects.slice(0, 1), { resourceVersion: '11' }, json, table);
  assert.ok(isStreamableList(small));
  const whole = new RecordingResponse();
  await writeJsonListStream(whole, 200, small, { signal, sources: { objects, encodings: second.encodings } });
  assert.equal(whole.body, JSON.stringify(small) + '\n');
  assert.equal(whole.headers['content-length'], String(Buffer.byteLength(whole.body)));
});

test(
  '#28 under test, a kept encoding that differs from its object fails the answer (a cached object was modified)',
  {
    skip:
      process.env['NANOKUBE_VERIFY_ENCODED_ITEMS'] === '1'
        ? false
        : 'NANOKUBE_VERIFY_ENCODED_ITEMS is not 1 (npm test sets it)',
  },
  async () => {
    const objects = [secret('a', { k: 'YQ==' }), secret('b', { k: 'Yg==' })];
    const list = representList(secretsInfo, objects, { resourceVersion: '12' }, json, table);
    assert.ok(isStreamableList(list));
    const { encodings } = keptEncodings(new Map([[objects[1]!, '{"metadata":{"name":"b","stale":true}}']]));
    const res = new RecordingResponse();
    await assert.rejects(
      writeJsonListStream(res, 200, list, {
        signal: new AbortController().signal,
        sources: { objects, encodings },
      }),
      /kept encoding of default\/b differs/,
    );
    assert.equal(res.headersSent, false, 'nothing sent: the handler answers with a Status');
  },
);
