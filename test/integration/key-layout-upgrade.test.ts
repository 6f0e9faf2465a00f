/**
 * A data dir written with nanokube's first key layout (/registry/apps/deployments/..., core
 * Services at /registry/services/NS/NAME) is moved to kube-apiserver's (/registry/deployments/...,
 * /registry/services/specs/...) when a server opens it, as etcd tools and kube-apiserver expect
 * (AM-13's storage). Secrets encrypted with AES-GCM, whose storage key is authenticated data, are
 * sealed again under their new keys; every object keeps its content; a watch from a
 * resourceVersion of before the move gets 410 Gone (the history was compacted) and lists again;
 * a snapshot file saved in the first layout restores into the new one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { servedResources } from '../../src/cmd/serve/resources.js';
import { encryptionAtRest } from '../../src/cmd/serve/encryption.js';
import { firstLayoutMoves } from '../../src/cmd/serve/key-layout.js';
import {
  decodeSnapshot,
  encodeSnapshot,
  snapshotContentType,
  snapshotPath,
} from '../../src/cmd/serve/snapshot.js';
import { FeatureGates } from '../../src/machinery/features.js';
import { moveKeys } from '../../src/storage/kv/relayout.js';
import { openSqliteKv } from '../../src/storage/kv/sqlite/sqlite-kv.js';
import { prefixEnd } from '../../src/storage/kv/types.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const secret = Buffer.alloc(16, 7).toString('base64');

/** Moves a stopped data dir's keys back to the first layout, through its encryption, as an old nanokube left them. */
async function toFirstLayout(dataDir: string, configPath: string): Promise<void> {
  const stop = new AbortController();
  const enc = await encryptionAtRest({
    encryption: { configPath },
    features: new FeatureGates(),
    signal: stop.signal,
    log: () => undefined,
  });
  const kv = enc.wrap(await openSqliteKv({ path: join(dataDir, 'state.db'), compactionIntervalMs: 0 }));
  const back = firstLayoutMoves(servedResources()).map((m) => ({ from: m.to, to: m.from }));
  // Endpoints first: their new place lies under the Services' new one.
  back.sort((a, b) =>
    a.from.startsWith('/registry/services/endpoints/')
      ? -1
      : b.from.startsWith('/registry/services/endpoints/')
        ? 1
        : 0,
  );
  for (const m of back) await moveKeys(kv, [m]);
  await kv.setKeyLayout?.(1);
  await kv.close();
  stop.abort();
}

async function keysUnder(dataDir: string, prefix: string): Promise<string[]> {
  const kv = await openSqliteKv({ path: join(dataDir, 'state.db'), compactionIntervalMs: 0 });
  try {
    return (await kv.range({ key: prefix, end: prefixEnd(prefix) })).kvs.map((k) => k.key);
  } finally {
    await kv.close();
  }
}

describe("a data dir of nanokube's first key layout moves to kube-apiserver's on start (AM-13)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'nanokube-layout-'));
  const dataDir = join(dir, 'data');
  const configPath = join(dir, 'encryption.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        {
          resources: ['secrets'],
          providers: [{ aesgcm: { keys: [{ name: 'k1', secret }] } }, { identity: {} }],
        },
      ],
    }),
  );
  let server: TestServer | undefined;
  after(async () => {
    await server?.stop({ keep: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves every key, seals secrets again, and answers 410 to an older resourceVersion', async () => {
    server = await startTestServer({ dataDir, controllers: false, encryption: { configPath } });
    const s = server;
    assert.equal(
      (
        await s.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
          body: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'web' },
            spec: {
              selector: { matchLabels: { app: 'web' } },
              template: {
                metadata: { labels: { app: 'web' } },
                spec: { containers: [{ name: 'c', image: 'nginx' }] },
              },
            },
          },
        })
      ).status,
      201,
    );
    const made = await s.request('POST', '/api/v1/namespaces/default/secrets', {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1' },
        stringData: { password: 'hunter2' },
      },
    });
    assert.equal(made.status, 201, made.text);
    const svc = await s.request('POST', '/api/v1/namespaces/default/services', {
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } },
    });
    assert.equal(svc.status, 201, svc.text);
    const ip = (svc.json()['spec'] as { clusterIP: string }).clusterIP;
    const oldRV = (made.json()['metadata'] as { resourceVersion: string }).resourceVersion;
    await s.stop({ keep: true });
    server = undefined;
    assert.deepEqual(await keysUnder(dataDir, '/registry/deployments/'), [
      '/registry/deployments/default/web',
    ]);

    await toFirstLayout(dataDir, configPath);
    assert.deepEqual(await keysUnder(dataDir, '/registry/deployments/'), []);
    assert.deepEqual(await keysUnder(dataDir, '/registry/apps/deployments/'), [
      '/registry/apps/deployments/default/web',
    ]);
    assert.ok(
      (await keysUnder(dataDir, '/registry/services/default/')).includes('/registry/services/default/web'),
    );

    server = await startTestServer({ dataDir, controllers: false, encryption: { configPath } });
    const t = server;
    assert.equal((await t.request('GET', '/apis/apps/v1/namespaces/default/deployments/web')).status, 200);
    const s1 = await t.request('GET', '/api/v1/namespaces/default/secrets/s1');
    assert.equal(s1.status, 200, s1.text);
    assert.equal(
      Buffer.from((s1.json()['data'] as { password: string }).password, 'base64').toString(),
      'hunter2',
    );
    const web = await t.request('GET', '/api/v1/namespaces/default/services/web');
    assert.equal((web.json()['spec'] as { clusterIP: string }).clusterIP, ip);
    const stale = await t.request(
      'GET',
      `/api/v1/namespaces/default/secrets?watch=1&resourceVersion=${oldRV}`,
    );
    assert.match(stale.text, /"code":410/);
    await t.stop({ keep: true });
    server = undefined;
    assert.deepEqual(await keysUnder(dataDir, '/registry/apps/'), []);
    assert.deepEqual(await keysUnder(dataDir, '/registry/deployments/'), [
      '/registry/deployments/default/web',
    ]);
    assert.ok(
      (await keysUnder(dataDir, '/registry/services/specs/default/')).includes(
        '/registry/services/specs/default/web',
      ),
    );
  });

  it('a snapshot file saved in the first layout restores into the new one', async () => {
    await toFirstLayout(dataDir, configPath);
    // The snapshot as an old nanokube wrote it: the first layout, and no layout in its header.
    const kv = await openSqliteKv({ path: join(dataDir, 'state.db'), compactionIntervalMs: 0 });
    const old = await kv.snapshot();
    await kv.close();
    const bytes = Buffer.from(encodeSnapshot(old));
    const headerLength = bytes.readUInt32BE('NANOKUBE-SNAPSHOT 1\n'.length);
    const header = JSON.parse(bytes.toString('utf8', 24, 24 + headerLength)) as Record<string, unknown>;
    delete header['layout'];
    const newHeader = Buffer.from(JSON.stringify(header));
    const legacy = Buffer.concat([
      bytes.subarray(0, 20),
      Buffer.alloc(4),
      newHeader,
      bytes.subarray(24 + headerLength),
    ]);
    legacy.writeUInt32BE(newHeader.length, 20);
    assert.equal(decodeSnapshot(legacy).keyLayout, 1);

    const fresh = join(dir, 'fresh');
    server = await startTestServer({ dataDir: fresh, controllers: false, encryption: { configPath } });
    const t = server;
    const put = await t.request('PUT', snapshotPath, { raw: legacy, contentType: snapshotContentType });
    assert.equal(put.status, 200, put.text);
    assert.equal((await t.request('GET', '/apis/apps/v1/namespaces/default/deployments/web')).status, 200);
    const s1 = await t.request('GET', '/api/v1/namespaces/default/secrets/s1');
    assert.equal(
      Buffer.from((s1.json()['data'] as { password: string }).password, 'base64').toString(),
      'hunter2',
    );
  });
});
