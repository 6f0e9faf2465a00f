/**
 * `--storage-media-type=application/vnd.kubernetes.protobuf` (AM-13's storage as upstream writes
 * it): built-in objects are stored as Kubernetes protobuf (`k8s\0` and a runtime.Unknown naming
 * the storage version), custom resources as JSON; what is read back is the same object; an update
 * that changes nothing does not write; a server on the default JSON reads a protobuf store, and
 * a protobuf server reads a JSON one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { builtinProtobuf } from '../../src/apis/protobuf.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const protobuf = 'application/vnd.kubernetes.protobuf' as const;
const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The stored bytes of `key`, read from the SQLite file after the server stopped. */
function stored(dataDir: string, key: string): Buffer {
  const db = new Database(join(dataDir, 'state.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT value FROM kv WHERE key = ?').get(key) as { value: Buffer } | undefined;
    assert.ok(row !== undefined, `no ${key}`);
    return row.value;
  } finally {
    db.close();
  }
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        },
      },
    ],
  },
};

describe('--storage-media-type (AM-13)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nanokube-media-'));
  let server: TestServer | undefined;
  after(async () => {
    await server?.stop({ keep: true });
    if (process.env['KEEP'] === undefined) rmSync(dataDir, { recursive: true, force: true });
    else console.log(dataDir);
  });

  it('stores built-in kinds as protobuf and custom resources as JSON; reads back the same objects', async () => {
    server = await startTestServer({ dataDir, controllers: false, storageMediaType: protobuf });
    const s = server;
    const made = await s.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: deployment,
    });
    assert.equal(made.status, 201, made.text);
    const created = made.json();
    const got = await s.request('GET', '/apis/apps/v1/namespaces/default/deployments/web');
    assert.deepEqual(got.json(), created);
    // A PUT of the object as it is writes nothing: the resourceVersion stays.
    const same = await s.request('PUT', '/apis/apps/v1/namespaces/default/deployments/web', {
      body: created,
    });
    assert.equal(same.status, 200, same.text);
    assert.equal(
      (same.json()['metadata'] as { resourceVersion: string }).resourceVersion,
      (created['metadata'] as { resourceVersion: string }).resourceVersion,
    );
    // A change is written and read back.
    const scaled = await s.request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', {
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(scaled.status, 200, scaled.text);
    const list = await s.request('GET', '/apis/apps/v1/namespaces/default/deployments');
    assert.equal((list.json()['items'] as { spec: { replicas: number } }[])[0]!.spec.replicas, 3);

    assert.equal(
      (await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd }))
        .status,
      201,
    );
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    let w = await s.request('POST', widgets, {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } },
    });
    for (let i = 0; i < 50 && w.status === 404; i++) {
      await new Promise((r) => setTimeout(r, 50));
      w = await s.request('POST', widgets, {
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } },
      });
    }
    assert.equal(w.status, 201, w.text);
    await s.stop({ keep: true });
    server = undefined;

    const dep = stored(dataDir, '/registry/deployments/default/web');
    assert.deepEqual(dep.subarray(0, 4), magic);
    const decoded = builtinProtobuf.decode(dep);
    assert.deepEqual([decoded.apiVersion, decoded.kind], ['apps/v1', 'Deployment']);
    assert.equal((decoded.object['metadata'] as { resourceVersion?: string }).resourceVersion, undefined);
    const cr = stored(dataDir, '/registry/example.com/widgets/default/w1');
    assert.equal(cr.subarray(0, 1).toString(), '{');
    assert.equal((JSON.parse(cr.toString('utf8')) as { spec: { size: number } }).spec.size, 1);
  });

  it('a server on JSON reads the protobuf store, and writes JSON from then on', async () => {
    server = await startTestServer({ dataDir, controllers: false });
    const got = await server.request('GET', '/apis/apps/v1/namespaces/default/deployments/web');
    assert.equal(got.status, 200, got.text);
    assert.equal((got.json()['spec'] as { replicas: number }).replicas, 3);
    const patched = await server.request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', {
      body: { spec: { replicas: 4 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    await server.stop({ keep: true });
    server = undefined;
    assert.equal(stored(dataDir, '/registry/deployments/default/web').subarray(0, 1).toString(), '{');
  });
});
