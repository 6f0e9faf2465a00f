import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, allowGzip, endWhole, gzipThresholdBytes, gzipsAnswer } from './response-compression.js';
import type { ServerResponseLike } from './response.js';

/** A response that records its head and body. */
class Recorder extends EventEmitter implements ServerResponseLike {
  headersSent = false;
  code = 0;
  headers: Record<string, string | string[]> = {};
  readonly chunks: Buffer[] = [];
  readonly ended: Promise<void>;
  #end!: () => void;
  constructor() {
    super();
    this.ended = new Promise((r) => (this.#end = r));
  }
  writeHead(code: number, headers: Record<string, string | string[]> = {}): this {
    this.code = code;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  setHeader(): this {
    return this;
  }
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk));
    return true;
  }
  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined) this.write(chunk);
    this.#end();
    return this;
  }
}

test('acceptsGzip reads Accept-Encoding as upstream negotiateContentEncoding', () => {
  assert.equal(acceptsGzip('gzip'), true);
  assert.equal(acceptsGzip('gzip, deflate'), true);
  assert.equal(acceptsGzip('deflate,  gzip  '), true);
  assert.equal(acceptsGzip(['br, gzip']), true);
  assert.equal(acceptsGzip('gzip;q=0.5'), false);
  assert.equal(acceptsGzip('*'), false);
  assert.equal(acceptsGzip('x-gzip'), false);
  assert.equal(acceptsGzip(''), false);
  assert.equal(acceptsGzip(undefined), false);
});

test('only answers over the threshold to marked requests are gzipped', () => {
  const req = {};
  assert.equal(gzipsAnswer(req, gzipThresholdBytes + 1), false, 'not marked');
  allowGzip(req);
  assert.equal(gzipsAnswer(req, gzipThresholdBytes), false, 'at the threshold: as upstream, only larger');
  assert.equal(gzipsAnswer(req, gzipThresholdBytes + 1), true);
  assert.equal(gzipsAnswer(undefined, gzipThresholdBytes + 1), false);
});

test('endWhole: a gzipped answer drops Content-Length and adds Accept-Encoding to an existing Vary', async () => {
  const req = {};
  allowGzip(req);
  const res = new Recorder();
  const text = JSON.stringify({ blob: 'y'.repeat(gzipThresholdBytes) });
  endWhole(res, req, 200, { 'content-type': 'application/json', vary: 'Accept' }, text);
  await res.ended;
  assert.deepEqual(res.headers, {
    'content-type': 'application/json',
    'content-encoding': 'gzip',
    vary: ['Accept', 'Accept-Encoding'],
  });
  assert.equal(gunzipSync(Buffer.concat(res.chunks)).toString('utf8'), text);

  const small = new Recorder();
  endWhole(small, req, 200, { 'content-type': 'application/json' }, '{}\n');
  await small.ended;
  assert.deepEqual(small.headers, { 'content-type': 'application/json', 'content-length': '3' });
});
