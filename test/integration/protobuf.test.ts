/**
 * Integration: the protobuf wire format (`application/vnd.kubernetes.protobuf`) end to
 * end on an in-process server — request bodies, responses, lists, Status errors, watch frames,
 * PartialObjectMetadata and the negotiation rules around them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinProtobuf } from '../../src/apis/protobuf.js';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const pb = 'application/vnd.kubernetes.protobuf';
const cmPath = '/api/v1/namespaces/default/configmaps';

function decode(bytes: Buffer): JsonObject {
  return builtinProtobuf.decode(bytes).object;
}

/** Splits a protobuf watch stream into its WatchEvent frames (4-byte big-endian length prefix). */
function frames(bytes: Buffer): { type: string; object: JsonObject }[] {
  const out: { type: string; object: JsonObject }[] = [];
  for (let i = 0; i < bytes.length;) {
    const len = bytes.readUInt32BE(i);
    out.push(builtinProtobuf.decodeWatchEvent(bytes.subarray(i + 4, i + 4 + len)));
    i += 4 + len;
  }
  return out;
}

describe('protobuf wire format', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.stop());

  it('creates from a protobuf body and answers in protobuf (kubectl 1.32+ create)', async () => {
    const body = builtinProtobuf.encode({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'pb1', labels: { a: 'b' } },
      data: { k: 'v' },
    });
    const r = await s.request('POST', cmPath, {
      raw: body,
      contentType: pb,
      accept: `${pb}, application/json`,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['content-type'], pb);
    const created = decode(r.bytes);
    assert.equal(created['kind'], 'ConfigMap');
    assert.deepEqual(created['data'], { k: 'v' });
    const meta = created['metadata'] as JsonObject;
    assert.equal(meta['name'], 'pb1');
    assert.equal(typeof meta['uid'], 'string');
    // The JSON view of the same object agrees.
    const asJson = (await s.request('GET', `${cmPath}/pb1`)).json();
    assert.deepEqual((asJson['metadata'] as JsonObject)['labels'], { a: 'b' });
    assert.equal((asJson['metadata'] as JsonObject)['creationTimestamp'], meta['creationTimestamp']);
  });

  it('GET and LIST in protobuf decode to the JSON answers', async () => {
    const one = await s.request('GET', `${cmPath}/pb1`, { accept: pb });
    const json = (await s.request('GET', `${cmPath}/pb1`)).json();
    assert.equal(one.status, 200);
    assert.deepEqual(decode(one.bytes), json);
    const list = await s.request('GET', cmPath, { accept: pb });
    assert.equal(list.headers['content-type'], pb);
    const decoded = decode(list.bytes);
    assert.equal(decoded['kind'], 'ConfigMapList');
    assert.ok(
      (decoded['items'] as JsonObject[]).some((i) => (i['metadata'] as JsonObject)['name'] === 'pb1'),
    );
  });

  it('updates from a protobuf body; a wrong kind gets the conversion error', async () => {
    const current = decode((await s.request('GET', `${cmPath}/pb1`, { accept: pb })).bytes);
    current['data'] = { k: 'v2' };
    const r = await s.request('PUT', `${cmPath}/pb1`, {
      raw: builtinProtobuf.encode(current),
      contentType: pb,
      accept: pb,
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(decode(r.bytes)['data'], { k: 'v2' });
    const secret = builtinProtobuf.encode({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pb1' } });
    const wrong = await s.request('POST', cmPath, { raw: secret, contentType: pb });
    assert.equal(wrong.status, 400);
    assert.equal(
      wrong.json()['message'],
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
    );
  });

  it('errors are Status objects in protobuf when the client asks for it', async () => {
    const r = await s.request('GET', `${cmPath}/nope`, { accept: `${pb}, application/json` });
    assert.equal(r.status, 404);
    assert.equal(r.headers['content-type'], pb);
    assert.deepEqual(decode(r.bytes), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    });
  });

  it('malformed protobuf bodies get upstream decode errors, nothing is written', async () => {
    const notPb = await s.request('POST', cmPath, { raw: '{"kind":"ConfigMap"}', contentType: pb });
    assert.equal(notPb.status, 400);
    assert.equal(
      notPb.json()['message'],
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    );
    const truncated = Buffer.from(
      builtinProtobuf.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cut' } }),
    ).subarray(0, 30);
    const cut = await s.request('POST', cmPath, { raw: truncated, contentType: pb });
    assert.equal(cut.status, 400);
    assert.match(
      String(cut.json()['message']),
      /^the object provided is unrecognized \(must be of type ConfigMap\): /,
    );
    assert.equal((await s.request('GET', `${cmPath}/cut`)).status, 404);
    const unknown = Buffer.concat([
      Buffer.from('k8s\0'),
      Buffer.from([0x0a, 0x09, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x03, 0x46, 0x6f, 0x6f]),
    ]);
    const foo = await s.request('POST', cmPath, { raw: unknown, contentType: pb });
    assert.equal(foo.status, 400);
    assert.match(
      String(foo.json()['message']),
      /^Foo in version "v1" cannot be handled as a ConfigMap: no kind "Foo" is registered for version "v1" in scheme "pkg\/api\/legacyscheme\/scheme.go:30"$/,
    );
  });

  it('PartialObjectMetadata in protobuf; a Table is never protobuf', async () => {
    const r = await s.request('GET', `${cmPath}/pb1`, {
      accept: `${pb};as=PartialObjectMetadata;v=v1;g=meta.k8s.io`,
    });
    assert.equal(r.status, 200);
    const pom = decode(r.bytes);
    assert.equal(pom['kind'], 'PartialObjectMetadata');
    assert.equal(pom['apiVersion'], 'meta.k8s.io/v1');
    assert.equal((pom['metadata'] as JsonObject)['name'], 'pb1');
    const table = await s.request('GET', cmPath, {
      accept: `${pb};as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.k8s.io`,
    });
    assert.equal(table.headers['content-type'], 'application/json');
    assert.equal(table.json()['kind'], 'Table');
  });

  it('deletes with a protobuf DeleteOptions body', async () => {
    await s.request('POST', cmPath, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gone' } },
    });
    const uid = (await s.request('GET', `${cmPath}/gone`)).json<{ metadata: { uid: string } }>().metadata.uid;
    const wrongUid = builtinProtobuf.encode({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'other' },
    });
    const refused = await s.request('DELETE', `${cmPath}/gone`, { raw: wrongUid, contentType: pb });
    assert.equal(refused.status, 409);
    const opts = builtinProtobuf.encode({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'DeleteOptions',
      preconditions: { uid },
    });
    const r = await s.request('DELETE', `${cmPath}/gone`, { raw: opts, contentType: pb, accept: pb });
    assert.equal(r.status, 200, r.text);
    const status = decode(r.bytes);
    assert.equal(status['kind'], 'Status');
    assert.equal(status['status'], 'Success');
  });

  it('watch streams length-prefixed WatchEvent frames', async () => {
    const r = await s.request('GET', `${cmPath}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dpb1`, {
      accept: pb,
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/vnd.kubernetes.protobuf;stream=watch');
    const events = frames(r.bytes);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'ADDED');
    assert.equal(events[0]!.object['kind'], 'ConfigMap');
    assert.deepEqual(events[0]!.object['data'], { k: 'v2' });
  });

  it('a status subresource and scale speak protobuf too', async () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    };
    const created = await s.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      raw: builtinProtobuf.encode(dep),
      contentType: pb,
      accept: pb,
    });
    assert.equal(created.status, 201, created.text);
    const spec = decode(created.bytes)['spec'] as JsonObject;
    assert.equal(spec['revisionHistoryLimit'], 10, 'defaults applied to a protobuf body');
    const scale = await s.request('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale', {
      accept: pb,
    });
    assert.equal(scale.status, 200);
    const decoded = decode(scale.bytes);
    assert.equal(decoded['kind'], 'Scale');
    assert.equal((decoded['spec'] as JsonObject)['replicas'], 1);
  });
});
