/**
 * APIResponseCompression (beta in v1.27, on by default): API object answers over 128 KiB are
 * gzipped for a client whose Accept-Encoding names gzip, as kube-apiserver's
 * deferredResponseWriter does; smaller ones, watches and clients that do not ask get them as
 * they are, and the gate turned off compresses nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { adminSession } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestResponse, TestServer } from '../support/server.js';

const gzip = { 'accept-encoding': 'gzip' };
const listPath = '/api/v1/namespaces/default/configmaps';

function configMap(name: string, bytes: number): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: 'x'.repeat(bytes) } };
}

function body(r: TestResponse): Buffer {
  return r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.bytes) : r.bytes;
}

async function fill(s: TestServer): Promise<void> {
  // 24 ConfigMaps of 8 KiB: a list of about 200 KiB, each item small.
  for (let i = 0; i < 24; i++) {
    const r = await s.request('POST', listPath, { body: configMap(`cm-${i}`, 8 * 1024) });
    assert.equal(r.status, 201, r.text);
  }
  const big = await s.request('POST', listPath, { body: configMap('zz-big', 200 * 1024) });
  assert.equal(big.status, 201, big.text);
}

describe('APIResponseCompression: answers over 128 KiB gzipped for clients that ask', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false });
    await fill(s);
  });
  after(() => s.stop());

  it('a streamed JSON list over the threshold: gzip, Vary, no Content-Length; the same bytes once inflated', async () => {
    const plain = await s.request('GET', listPath);
    const zipped = await s.request('GET', listPath, { headers: gzip });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined, 'not asked: not compressed');
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers['vary'], 'Accept-Encoding');
    assert.equal(zipped.headers['content-length'], undefined);
    assert.equal(zipped.headers['content-type'], 'application/json');
    assert.ok(zipped.bytes.byteLength < plain.bytes.byteLength / 10, `${zipped.bytes.byteLength} bytes`);
    assert.equal(body(zipped).toString('utf8'), plain.text);
  });

  it('a list under the threshold, and a small object, are sent as they are', async () => {
    const small = await s.request('GET', `${listPath}?limit=3`, { headers: gzip });
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal((small.json<{ items: unknown[] }>().items ?? []).length, 3);
    const one = await s.request('GET', `${listPath}/cm-1`, { headers: gzip });
    assert.equal(one.headers['content-encoding'], undefined);
    assert.equal(one.headers['content-length'], String(one.bytes.byteLength));
  });

  it('one object over the threshold (writeObject), JSON and protobuf alike', async () => {
    const json = await s.request('GET', `${listPath}/zz-big`, { headers: gzip });
    assert.equal(json.headers['content-encoding'], 'gzip');
    assert.equal(json.headers['content-length'], undefined);
    const obj = JSON.parse(body(json).toString('utf8')) as { data: { blob: string } };
    assert.equal(obj.data.blob.length, 200 * 1024);
    const proto = await s.request('GET', listPath, {
      headers: gzip,
      accept: 'application/vnd.kubernetes.protobuf',
    });
    assert.equal(proto.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    assert.equal(proto.headers['content-encoding'], 'gzip');
    assert.deepEqual([...body(proto).subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00], 'k8s\\0 once inflated');
  });

  it('Accept-Encoding is read as upstream: a token exactly "gzip" among commas', async () => {
    for (const [value, expected] of [
      ['deflate, gzip', 'gzip'],
      [' gzip ,br', 'gzip'],
      ['gzip;q=1.0', undefined],
      ['*', undefined],
      ['deflate', undefined],
      ['GZIP', undefined],
    ] as const) {
      const r = await s.request('GET', listPath, { headers: { 'accept-encoding': value } });
      assert.equal(r.headers['content-encoding'], expected, value);
      assert.equal((JSON.parse(body(r).toString('utf8')) as { kind: string }).kind, 'ConfigMapList', value);
    }
  });

  it('discovery documents follow the same rule (all of them are under the threshold today)', async () => {
    const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
    for (const [path, accept] of [
      ['/apis', aggregated],
      ['/api', aggregated],
      ['/apis', 'application/json'],
      ['/api/v1', 'application/json'],
    ] as const) {
      const plain = await s.request('GET', path, { accept });
      const zipped = await s.request('GET', path, { accept, headers: gzip });
      const over = plain.bytes.byteLength > 128 * 1024;
      assert.equal(
        zipped.headers['content-encoding'],
        over ? 'gzip' : undefined,
        `${path} ${plain.bytes.byteLength}`,
      );
      assert.equal(body(zipped).toString('utf8'), plain.text, path);
    }
  });

  it('HTTP/2: the list arrives gzipped and whole', async () => {
    const session = adminSession(s);
    try {
      const { headers, bytes } = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>(
        (resolve, reject) => {
          const req = session.request({ ':path': listPath, accept: 'application/json', ...gzip });
          const chunks: Buffer[] = [];
          let head: Record<string, unknown> = {};
          req.on('response', (h) => (head = h));
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => resolve({ headers: head, bytes: Buffer.concat(chunks) }));
          req.on('error', reject);
          req.end();
        },
      );
      assert.equal(headers['content-encoding'], 'gzip');
      const list = JSON.parse(gunzipSync(bytes).toString('utf8')) as { items: unknown[] };
      assert.equal(list.items.length, 25);
    } finally {
      session.close();
    }
  });

  it('a watch is never compressed, however large its events', async () => {
    const session = adminSession(s);
    try {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const req = session.request({
          ':path': `${listPath}?watch=1&fieldSelector=metadata.name%3Dzz-big`,
          accept: 'application/json',
          ...gzip,
        });
        req.on('response', (h) => {
          resolve(h);
          req.close();
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(headers[':status'], 200);
      assert.equal(headers['content-encoding'], undefined);
    } finally {
      // Destroyed, not closed: after resetting a watch whose 200 KiB event still waits for the
      // client's window, node's client session.close() does not complete (with or without
      // compression; not what this test is about).
      session.destroy();
    }
  });
});

describe('APIResponseCompression=false: nothing is compressed', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false, featureGates: { APIResponseCompression: false } });
    await fill(s);
  });
  after(() => s.stop());

  it('the large list and object come as they are', async () => {
    for (const path of [listPath, `${listPath}/zz-big`]) {
      const r = await s.request('GET', path, { headers: gzip });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], undefined, path);
      assert.equal(r.headers['vary'], undefined, path);
    }
  });
});
