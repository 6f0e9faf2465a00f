/**
 * Durability of the real `nanokube serve` process: a SIGKILL in the middle of a burst of creates
 * loses no acknowledged create, and a clean SIGTERM restart keeps objects, resourceVersions and
 * the PKI/kubeconfig.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { httpsClient, readCredentials } from '../e2e/support-client/https-client.js';
import type { HttpsClient } from '../e2e/support-client/https-client.js';
import { skipWithoutDist, spawnServer } from '../e2e/support-client/spawn-server.js';
import type { SpawnedServer } from '../e2e/support-client/spawn-server.js';

interface Meta {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
}
interface ConfigMapLike {
  readonly metadata: Meta;
  readonly data?: Record<string, string>;
}
interface ListLike {
  readonly metadata: { readonly resourceVersion: string };
  readonly items: ConfigMapLike[];
}

const cmPath = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string): ConfigMapLike & Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name } as Meta,
  data: { k: name },
});
const rv = (s: string): bigint => BigInt(s);

const dirs: string[] = [];
const servers: SpawnedServer[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'nanokube-crash-'));
  dirs.push(d);
  return d;
}
async function start(dataDir: string): Promise<{ server: SpawnedServer; client: HttpsClient }> {
  const server = await spawnServer({ dataDir });
  servers.push(server);
  return { server, client: httpsClient(readCredentials(server.kubeconfigPath), { maxSockets: 16 }) };
}

after(async () => {
  for (const s of servers) await s.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('nanokube serve durability', { skip: skipWithoutDist }, () => {
  it('kill -9 during a burst of creates loses no acknowledged create', { timeout: 20_000 }, async (t) => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const acked = new Map<string, Meta>();
    let sent = 0;
    let failedInFlight = 0;
    let killed = false;
    let killPromise: Promise<void> | undefined;
    const killAfter = 150;

    // Workers keep sending after the kill is requested until a request fails: answers already on
    // the wire (a group commit acknowledges a whole batch at once) are acknowledged creates too,
    // and every worker ends on a create the kill cut off.
    const worker = async (): Promise<void> => {
      while (sent < 5000) {
        const name = `cm-${sent++}`;
        try {
          const r = await first.client.send('POST', cmPath, configMap(name));
          if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
          const obj = r.json<ConfigMapLike>();
          acked.set(name, obj.metadata);
          if (acked.size >= killAfter && !killed) {
            killed = true;
            killPromise = first.server.kill();
          }
        } catch (err) {
          // Connection errors after the kill are expected: those creates were never acknowledged.
          if (!killed) throw err;
          failedInFlight++;
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await killPromise;
    first.client.close();
    assert.equal(first.server.child.signalCode, 'SIGKILL');
    t.diagnostic(`${sent} creates sent, ${acked.size} acknowledged, ${failedInFlight} cut off by the kill`);
    assert.ok(acked.size >= killAfter, `only ${acked.size} creates acknowledged`);
    assert.ok(failedInFlight > 0, 'the kill should interrupt creates in flight');

    const second = await start(dataDir);
    try {
      const list = await second.client.send('GET', cmPath);
      assert.equal(list.status, 200, list.text);
      const body = list.json<ListLike>();
      const found = new Map(body.items.map((i) => [i.metadata.name, i]));
      const lost: string[] = [];
      for (const [name, meta] of acked) {
        const got = found.get(name);
        if (got === undefined) {
          lost.push(name);
          continue;
        }
        assert.equal(got.metadata.uid, meta.uid, `${name}: uid changed across the crash`);
        assert.equal(got.metadata.resourceVersion, meta.resourceVersion, `${name}: resourceVersion changed`);
        assert.deepEqual(got.data, { k: name });
      }
      assert.deepEqual(lost, [], `acknowledged creates lost by kill -9 (${lost.length} of ${acked.size})`);

      const maxBefore = [...found.values()].reduce(
        (m, i) => (rv(i.metadata.resourceVersion) > m ? rv(i.metadata.resourceVersion) : m),
        0n,
      );
      assert.ok(
        rv(body.metadata.resourceVersion) >= maxBefore,
        'list resourceVersion below an item resourceVersion',
      );
      const created = await second.client.send('POST', cmPath, configMap('after-crash'));
      assert.equal(created.status, 201, created.text);
      const newRv = rv(created.json<ConfigMapLike>().metadata.resourceVersion);
      assert.ok(newRv > maxBefore, `resourceVersion went backwards after restart: ${newRv} <= ${maxBefore}`);
      assert.ok(newRv > rv(body.metadata.resourceVersion), 'new create not above the list resourceVersion');

      // Names that were in flight but not acknowledged may or may not exist; a retry must not be a
      // duplicate of something half-written: every stored object reads back whole.
      for (const item of body.items)
        assert.ok(item.metadata.uid.length > 0, `${item.metadata.name} has no uid`);
    } finally {
      second.client.close();
      await second.server.stop();
    }
  });

  it(
    'a clean SIGTERM restart keeps objects, resourceVersions, the CA and the kubeconfig',
    { timeout: 20_000 },
    async () => {
      const dataDir = tempDir();
      const first = await start(dataDir);
      const ns = await first.client.send('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'keep' },
      });
      assert.equal(ns.status, 201, ns.text);
      const cm = await first.client.send('POST', '/api/v1/namespaces/keep/configmaps', configMap('kept'));
      assert.equal(cm.status, 201, cm.text);
      const cmBody: Record<string, unknown> = cm.json();
      const updated = await first.client.send('PUT', '/api/v1/namespaces/keep/configmaps/kept', {
        ...cmBody,
        data: { k: 'changed' },
      });
      assert.equal(updated.status, 200, updated.text);
      const before = updated.json<ConfigMapLike>().metadata;
      const listBefore = (
        await first.client.send('GET', '/api/v1/namespaces/keep/configmaps')
      ).json<ListLike>();
      const caBefore = readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8');
      const credsBefore = readCredentials(first.server.kubeconfigPath);
      first.client.close();
      assert.equal(await first.server.stop(), 0, `SIGTERM exit code; stderr: ${first.server.stderr()}`);

      const second = await start(dataDir);
      try {
        assert.equal(second.server.kubeconfigPath, first.server.kubeconfigPath);
        assert.equal(
          readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8'),
          caBefore,
          'CA certificate regenerated',
        );
        const credsAfter = readCredentials(second.server.kubeconfigPath);
        assert.equal(credsAfter.ca, credsBefore.ca, 'kubeconfig CA changed');
        assert.equal(credsAfter.cert, credsBefore.cert, 'kubeconfig client certificate changed');
        assert.equal(credsAfter.key, credsBefore.key, 'kubeconfig client key changed');
        assert.equal(credsAfter.server, second.server.url);

        // The old credentials still authenticate (same CA, same admin cert) against the new port.
        const oldCreds = httpsClient({ ...credsBefore, server: second.server.url });
        try {
          const got = await oldCreds.send('GET', '/api/v1/namespaces/keep/configmaps/kept');
          assert.equal(got.status, 200, got.text);
          const meta = got.json<ConfigMapLike>();
          assert.equal(meta.metadata.uid, before.uid);
          assert.equal(meta.metadata.resourceVersion, before.resourceVersion);
          assert.deepEqual(meta.data, { k: 'changed' });
          const nsGot = await oldCreds.send('GET', '/api/v1/namespaces/keep');
          assert.equal(nsGot.status, 200, nsGot.text);
        } finally {
          oldCreds.close();
        }
        const listAfter = (
          await second.client.send('GET', '/api/v1/namespaces/keep/configmaps')
        ).json<ListLike>();
        assert.ok(
          rv(listAfter.metadata.resourceVersion) >= rv(listBefore.metadata.resourceVersion),
          'list resourceVersion went backwards',
        );
        const next = await second.client.send(
          'POST',
          '/api/v1/namespaces/keep/configmaps',
          configMap('next'),
        );
        assert.equal(next.status, 201, next.text);
        assert.ok(rv(next.json<ConfigMapLike>().metadata.resourceVersion) > rv(before.resourceVersion));
      } finally {
        second.client.close();
        assert.equal(await second.server.stop(), 0);
      }
    },
  );
});
