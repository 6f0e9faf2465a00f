/**
 * Watches asking `as=PartialObjectMetadata` (client-go's metadata informers, the garbage
 * collector's): every event's object is meta.k8s.io's PartialObjectMetadata, bookmarks included,
 * as upstream's watch transforms each event; other watchers of the same events keep whole objects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientHttp2Session } from 'node:http2';
import { builtinProtobuf } from '../../src/apis/protobuf.js';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface Line {
  readonly type: string;
  readonly object: Record<string, unknown> & {
    readonly kind?: string;
    readonly apiVersion?: string;
    readonly metadata?: Record<string, unknown>;
  };
}

const metaAccept = (v: string) => `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=${v}`;
const cm = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'meta' } },
  data,
});

/** A watch over `session` with its own Accept header; its lines parsed as they come. */
function watchWith(session: ClientHttp2Session, path: string, accept: string) {
  const lines: Line[] = [];
  const stream = session.request({ ':path': path, accept });
  const status = new Promise<number>((resolve) =>
    stream.on('response', (h) => resolve(Number(h[':status']))),
  );
  const contentType = new Promise<string>((resolve) =>
    stream.on('response', (h) => resolve(String(h['content-type']))),
  );
  const chunks: Buffer[] = [];
  let buf = '';
  stream.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buf += chunk.toString('utf8');
    for (
      let nl = buf.indexOf('\n');
      nl >= 0 && accept.startsWith('application/json');
      nl = buf.indexOf('\n')
    ) {
      lines.push(JSON.parse(buf.slice(0, nl)) as Line);
      buf = buf.slice(nl + 1);
    }
  });
  return { lines, status, contentType, stream, bytes: () => Buffer.concat(chunks) };
}

describe('watch with as=PartialObjectMetadata', () => {
  let server: TestServer;
  let session: ClientHttp2Session;
  const ns = '/api/v1/namespaces/default/configmaps';
  before(async () => {
    server = await startTestServer({ controllers: false, featureGates: { WatchList: true } });
    session = adminSession(server);
  });
  after(async () => {
    session.destroy();
    await server.stop();
  });

  test('events carry metadata only; a plain watcher of the same events gets whole objects', async () => {
    assert.equal((await server.request('POST', ns, { body: cm('m-1', { a: '1' }) })).status, 201);
    const meta = watchWith(session, `${ns}?watch=1&labelSelector=app%3Dmeta`, metaAccept('v1'));
    const beta = watchWith(session, `${ns}?watch=1&labelSelector=app%3Dmeta`, metaAccept('v1beta1'));
    const plain = collectWatch<Line>(session, `${ns}?watch=1&labelSelector=app%3Dmeta`);
    assert.equal(await meta.status, 200);
    assert.equal(await meta.contentType, 'application/json');
    assert.equal(await plain.status, 200);
    await until(() => meta.lines.length === 1 && beta.lines.length === 1 && plain.lines.length === 1);
    const patch = { body: { data: { a: '2' } }, contentType: 'application/merge-patch+json' };
    assert.equal((await server.request('PATCH', `${ns}/m-1`, patch)).status, 200);
    assert.equal((await server.request('DELETE', `${ns}/m-1`)).status, 200);
    await until(() => meta.lines.length === 3 && beta.lines.length === 3 && plain.lines.length === 3);
    assert.deepEqual(
      meta.lines.map((l) => l.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    for (const [i, l] of meta.lines.entries()) {
      assert.deepEqual(Object.keys(l.object).sort(), ['apiVersion', 'kind', 'metadata']);
      assert.equal(l.object.kind, 'PartialObjectMetadata');
      assert.equal(l.object.apiVersion, 'meta.k8s.io/v1');
      assert.equal(l.object.metadata?.['name'], 'm-1');
      assert.equal(
        l.object.metadata?.['resourceVersion'],
        plain.lines[i]!.object.metadata?.['resourceVersion'],
      );
      assert.equal(beta.lines[i]!.object.apiVersion, 'meta.k8s.io/v1beta1');
      assert.equal(beta.lines[i]!.object.kind, 'PartialObjectMetadata');
    }
    assert.deepEqual(
      plain.lines.map((l) => [l.object.kind, (l.object['data'] as Record<string, string>)['a']]),
      [
        ['ConfigMap', '1'],
        ['ConfigMap', '2'],
        ['ConfigMap', '2'],
      ],
    );
    for (const s of [meta.stream, beta.stream, plain.stream]) s.close();
  });

  test('a WatchList ends its initial events with a PartialObjectMetadata BOOKMARK', async () => {
    assert.equal((await server.request('POST', ns, { body: cm('m-2', { b: '1' }) })).status, 201);
    const path = `${ns}?watch=1&labelSelector=app%3Dmeta&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
    const w = watchWith(session, path, metaAccept('v1'));
    assert.equal(await w.status, 200);
    await until(() => w.lines.length === 2);
    assert.equal(w.lines[0]!.type, 'ADDED');
    assert.equal(w.lines[0]!.object.kind, 'PartialObjectMetadata');
    const end = w.lines[1]!;
    assert.equal(end.type, 'BOOKMARK');
    assert.equal(end.object.kind, 'PartialObjectMetadata');
    assert.equal(end.object.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(end.object.metadata?.['annotations'], { 'k8s.io/initial-events-end': 'true' });
    w.stream.close();
  });

  test('in protobuf: PartialObjectMetadata frames', async () => {
    const w = watchWith(
      session,
      `${ns}?watch=1&labelSelector=app%3Dmeta&resourceVersion=0`,
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    );
    assert.equal(await w.status, 200);
    assert.match(await w.contentType, /^application\/vnd\.kubernetes\.protobuf;stream=watch/);
    const frames = () => {
      const bytes = w.bytes();
      const out = [];
      for (let i = 0; i + 4 <= bytes.length;) {
        const len = bytes.readUInt32BE(i);
        if (i + 4 + len > bytes.length) break;
        out.push(builtinProtobuf.decodeWatchEvent(bytes.subarray(i + 4, i + 4 + len)));
        i += 4 + len;
      }
      return out;
    };
    await until(() => frames().length === 1);
    const [ev] = frames();
    assert.equal(ev!.type, 'ADDED');
    assert.equal(ev!.object['kind'], 'PartialObjectMetadata');
    assert.equal((ev!.object['metadata'] as Record<string, unknown>)['name'], 'm-2');
    assert.equal(ev!.object['data'], undefined);
    w.stream.close();
  });
});
