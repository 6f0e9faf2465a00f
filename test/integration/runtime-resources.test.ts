/**
 * Seam 5: a resource registered while the server runs is served, listed in discovery
 * (legacy and aggregated, with a new ETag) and published in OpenAPI v2 and v3; removed, it is gone
 * from all of them. A second server in the same process sees none of it.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { after, before, test } from 'node:test';
import { arr, def, int32, obj, ref, str } from '../../src/apis/schema/dsl.js';
import type { ResourceInfo } from '../../src/apis/resource.js';
import { allVerbs } from '../../src/apis/resource.js';
import { decodeTyped } from '../../src/apiserver/decode-request.js';
import type { BodyDecoder } from '../../src/apiserver/decode-request.js';
import type { RegistryResource } from '../../src/registry/resource.js';
import { defineStrategy } from '../../src/registry/strategies/base.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const info: ResourceInfo = {
  group: 'example.nanokube.io',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  singular: 'widget',
  namespaced: true,
  shortNames: ['wd'],
  definition: 'io.nanokube.example.v1.Widget',
  verbs: allVerbs,
};

const definitions = [
  def(
    'io.nanokube.example.v1.Widget',
    obj({
      apiVersion: str(),
      kind: str(),
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', { default: {} }),
      spec: obj({ size: int32() }),
    }),
    [['example.nanokube.io', 'v1', 'Widget']],
  ),
  def(
    'io.nanokube.example.v1.WidgetList',
    obj({
      apiVersion: str(),
      kind: str(),
      items: arr(ref('io.nanokube.example.v1.Widget', { default: {} })),
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', { default: {} }),
    }),
    [['example.nanokube.io', 'v1', 'WidgetList']],
  ),
];

const widgets: RegistryResource = { info, strategy: defineStrategy({ namespaced: true }) };
const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const collection = '/apis/example.nanokube.io/v1/namespaces/default/widgets';

let server: TestServer;
let other: TestServer;
before(async () => {
  [server, other] = await Promise.all([
    startTestServer({ controllers: false }),
    startTestServer({ controllers: false }),
  ]);
});
after(async () => {
  await Promise.all([server.stop(), other.stop()]);
});

async function groups(s: TestServer): Promise<string[]> {
  const r = await s.request('GET', '/apis');
  return (r.json<{ groups: { name: string }[] }>().groups ?? []).map((g) => g.name);
}

test('a resource added at runtime is served, discovered and published; removed, it is gone', async () => {
  const before = await server.request('GET', '/apis', { accept: aggregated });
  const etag = String(before.headers['etag']);
  assert.equal((await server.request('GET', collection)).status, 404);

  server.resources.add(widgets, definitions);
  const created = await server.request('POST', collection, {
    body: {
      apiVersion: 'example.nanokube.io/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3 },
    },
  });
  assert.equal(created.status, 201, created.text);
  const bad = await server.request('POST', `${collection}?fieldValidation=Strict`, {
    body: {
      apiVersion: 'example.nanokube.io/v1',
      kind: 'Widget',
      metadata: { name: 'w2' },
      spec: { colour: 'red' },
    },
  });
  assert.equal(bad.status, 400);
  assert.match(String(bad.json()['message']), /unknown field "spec.colour"/);

  assert.ok((await groups(server)).includes('example.nanokube.io'));
  const list = await server.request('GET', '/apis/example.nanokube.io/v1');
  assert.deepEqual(
    list.json<{ resources: { name: string }[] }>().resources.map((r) => r.name),
    ['widgets'],
  );
  const agg = await server.request('GET', '/apis', {
    accept: aggregated,
    headers: { 'if-none-match': etag },
  });
  assert.equal(agg.status, 200, 'the aggregated document changed, so the old ETag no longer matches');
  assert.notEqual(agg.headers['etag'], etag);
  assert.match(agg.text, /"widgets"/);

  const v2 = await server.request('GET', '/openapi/v2');
  assert.ok(v2.json<{ definitions: Record<string, unknown> }>().definitions['io.nanokube.example.v1.Widget']);
  assert.ok(
    v2.json<{ paths: Record<string, unknown> }>().paths[
      `/apis/example.nanokube.io/v1/namespaces/{namespace}/widgets`
    ],
  );
  const v3 = await server.request('GET', '/openapi/v3');
  assert.ok(v3.json<{ paths: Record<string, unknown> }>().paths['apis/example.nanokube.io/v1']);
  assert.equal((await server.request('GET', '/openapi/v3/apis/example.nanokube.io/v1')).status, 200);

  // The other server in this process knows nothing of it.
  assert.ok(!(await groups(other)).includes('example.nanokube.io'));
  assert.equal((await other.request('GET', collection)).status, 404);
  assert.equal(other.api.schemas.get('io.nanokube.example.v1.Widget'), undefined);

  server.resources.remove(
    widgets,
    definitions.map((d) => d.name),
  );
  assert.equal((await server.request('GET', collection)).status, 404);
  assert.ok(!(await groups(server)).includes('example.nanokube.io'));
  const aggAfter = await server.request('GET', '/apis', {
    accept: aggregated,
    headers: { 'if-none-match': etag },
  });
  assert.equal(aggAfter.status, 304, 'back to the original document and ETag');
  const v2After = await server.request('GET', '/openapi/v2');
  assert.equal(
    v2After.json<{ definitions: Record<string, unknown> }>().definitions['io.nanokube.example.v1.Widget'],
    undefined,
  );
  assert.equal((await server.request('GET', '/openapi/v3/apis/example.nanokube.io/v1')).status, 404);

  // Stored objects stay: registering again serves them.
  server.resources.add(widgets, definitions);
  const again = await server.request('GET', `${collection}/w1`);
  assert.equal(again.status, 200);
  server.resources.remove(
    widgets,
    definitions.map((d) => d.name),
  );
});

test('each resource chooses its decoder: a runtime resource brings its own', async () => {
  const seen: string[] = [];
  const decode: BodyDecoder = (o) => {
    seen.push(o.info.kind);
    const typed = decodeTyped(o);
    typed.object.metadata.labels = { ...typed.object.metadata.labels, 'decoded-by': 'widget-decoder' };
    return { object: typed.object, warnings: [...typed.warnings, 'decoded by the widget decoder'] };
  };
  server.resources.add(widgets, definitions, decode);
  try {
    const r = await server.request('POST', collection, {
      body: {
        apiVersion: 'example.nanokube.io/v1',
        kind: 'Widget',
        metadata: { name: 'w3' },
        spec: { size: 1 },
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json<{ metadata: { labels: Record<string, string> } }>().metadata.labels, {
      'decoded-by': 'widget-decoder',
    });
    assert.deepEqual(r.warnings, ['decoded by the widget decoder']);
    assert.deepEqual(seen, ['Widget']);
    // Built-in kinds keep the typed decoder.
    const cm = await server.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' } },
    });
    assert.equal(cm.status, 201);
    assert.deepEqual(seen, ['Widget']);
  } finally {
    server.resources.remove(
      widgets,
      definitions.map((d) => d.name),
    );
  }
});

test('removing a resource ends the watches open on it', async () => {
  server.resources.add(widgets, definitions);
  const h2 = connect(server.url, {
    ca: server.pki.caCert,
    cert: server.pki.adminCert,
    key: server.pki.adminKey,
  });
  try {
    const stream = h2.request({ ':path': `${collection}?watch=1` });
    stream.resume();
    const status = await new Promise<number>((resolve) =>
      stream.on('response', (h) => resolve(Number(h[':status']))),
    );
    assert.equal(status, 200);
    const ended = new Promise<void>((resolve) => stream.on('close', () => resolve()));
    server.resources.remove(
      widgets,
      definitions.map((d) => d.name),
    );
    await ended;
  } finally {
    h2.close();
  }
});
