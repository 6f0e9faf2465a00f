/**
 * Encryption at rest (AM-10 for KMS v2): a server on real SQLite with
 * --encryption-provider-config keeps Secrets encrypted in the database file while every API read
 * (get, list, watch, after a restart) sees plaintext; ConfigMaps, not configured, stay plaintext;
 * rotation to a new first key keeps old Secrets readable and an unchanged replace rewrites them
 * under the new key; a KMS v2 plugin that is down fails the `kms-providers` health check.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { stringify as stringifyYaml } from 'yaml';
import type { KubeObject } from '../../src/machinery/object.js';
import { decodeEncryptedObject } from '../../src/storage/value/encrypt/kmsv2/encrypted-object.js';
import { startTestKmsPlugin } from '../support/kms-plugin.js';
import type { TestKmsPlugin } from '../support/kms-plugin.js';
import { findKubectl, kubectlSkipReason } from '../support/kubectl.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const secretValue = 'correct-horse-battery-staple-7f3a';
const secretB64 = Buffer.from(secretValue).toString('base64');
const key16 = Buffer.alloc(16, 7).toString('base64');
const key32a = Buffer.alloc(32, 1).toString('base64');
const key32b = Buffer.alloc(32, 2).toString('base64');

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'nanokube-enc-'));
  dirs.push(d);
  return d;
}

function writeConfig(dir: string, providers: readonly unknown[], format: 'yaml' | 'json' = 'json'): string {
  const config = {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [{ resources: ['secrets'], providers }],
  };
  const path = join(dir, `encryption-${Date.now()}-${Math.random()}.${format}`);
  writeFileSync(path, format === 'json' ? JSON.stringify(config) : stringifyYaml(config));
  return path;
}

/**
 * The stored bytes of one key, read straight from the SQLite file with a second connection (the
 * server holds its database exclusively, so this is done while it is stopped).
 */
function storedValue(dataDir: string, key: string): Buffer {
  const db = new Database(join(dataDir, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT value FROM kv WHERE key = ?').get(key) as { value: Buffer } | undefined;
    assert.ok(row !== undefined, `no row for ${key}`);
    return row.value;
  } finally {
    db.close();
  }
}

/** Every byte of the database files (main file and WAL), as an attacker with the disk would see them. */
function fileBytes(dataDir: string): Buffer {
  return Buffer.concat(
    readdirSync(dataDir)
      .filter((f) => f.startsWith('state.db'))
      .map((f) => readFileSync(join(dataDir, f))),
  );
}

function secret(name: string, value = secretValue): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'default' },
    stringData: { password: value },
  };
}

async function createSecret(server: TestServer, name: string, value = secretValue): Promise<void> {
  const r = await server.request('POST', '/api/v1/namespaces/default/secrets', { body: secret(name, value) });
  assert.equal(r.status, 201, r.text);
}

async function readPassword(server: TestServer, name: string): Promise<string> {
  const r = await server.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
  assert.equal(r.status, 200, r.text);
  const data = r.json<{ data: Record<string, string> }>().data;
  return Buffer.from(data['password'] ?? '', 'base64').toString();
}

/** `kubectl replace` with the object as it is: a PUT of what GET returned. */
async function replaceUnchanged(server: TestServer, name: string): Promise<void> {
  const path = `/api/v1/namespaces/default/secrets/${name}`;
  const current = (await server.request('GET', path)).json<KubeObject>();
  const r = await server.request('PUT', path, { body: current });
  assert.equal(r.status, 200, r.text);
}

function prefixOf(bytes: Buffer): string {
  const m = /^k8s:enc:[a-z0-9]+:v[12]:[^:]+:/.exec(bytes.toString('latin1'));
  return m === null ? bytes.subarray(0, 16).toString('latin1') : m[0];
}

const local = {
  aescbc: { aescbc: { keys: [{ name: 'cbc1', secret: key32a }] } },
  aesgcm: { aesgcm: { keys: [{ name: 'gcm1', secret: key16 }] } },
  secretbox: { secretbox: { keys: [{ name: 'box1', secret: key32b }] } },
};

describe('encryption at rest with local keys', () => {
  for (const [name, provider] of Object.entries(local)) {
    test(`${name}: secrets are ciphertext in the SQLite file, plaintext through the API, across a restart`, async () => {
      const dir = tempDir();
      const dataDir = join(dir, 'data');
      const configPath = writeConfig(dir, [provider, { identity: {} }], name === 'aesgcm' ? 'yaml' : 'json');
      let server = await startTestServer({ dataDir, controllers: false, encryption: { configPath } });
      try {
        // A watch started before the create sees the plaintext object.
        const client = adminClient(server);
        const abort = new AbortController();
        const watched = (async () => {
          for await (const ev of client.watch('/api/v1/namespaces/default/secrets?watch=1', abort.signal)) {
            const obj = ev.object as { metadata?: { name?: string }; data?: Record<string, string> };
            if (ev.type === 'ADDED' && obj.metadata?.name === 's1') return obj.data?.['password'];
          }
          return undefined;
        })();
        await createSecret(server, 's1');
        const cm = await server.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'c1' },
            data: { note: secretValue },
          },
        });
        assert.equal(cm.status, 201, cm.text);
        assert.equal(await watched, secretB64);
        abort.abort();
        client.close();

        assert.equal(await readPassword(server, 's1'), secretValue);
        const list = await server.request('GET', '/api/v1/namespaces/default/secrets');
        assert.equal(list.status, 200);
        const items = list.json<{ items: { metadata: { name: string }; data: Record<string, string> }[] }>()
          .items;
        assert.equal(items.find((i) => i.metadata.name === 's1')?.data['password'], secretB64);
        // A list at resourceVersion 0 is served by the watch cache: plaintext too.
        const cached = await server.request('GET', '/api/v1/secrets?resourceVersion=0');
        assert.ok(cached.text.includes(secretB64));

        // The database files as they are on disk while serving: no trace of the Secret's data.
        assert.ok(!fileBytes(dataDir).includes(secretB64), 'base64 secret data found on disk');
        await server.stop({ keep: true });
        assert.ok(!fileBytes(dataDir).includes(secretB64), 'base64 secret data found on disk');
        const stored = storedValue(dataDir, '/registry/secrets/default/s1');
        const expectedPrefix = `k8s:enc:${name}:v1:${Object.values(provider)[0]!.keys[0]!.name}:`;
        assert.equal(prefixOf(stored), expectedPrefix);
        assert.ok(!stored.includes(secretValue) && !stored.includes(secretB64));
        // The ConfigMap is not configured: stored as plain JSON.
        const cmBytes = storedValue(dataDir, '/registry/configmaps/default/c1');
        assert.ok(cmBytes.toString().startsWith('{') && cmBytes.includes(secretValue));
        server = await startTestServer({ dataDir, controllers: false, encryption: { configPath } });
        assert.equal(await readPassword(server, 's1'), secretValue);
      } finally {
        await server.stop();
      }
    });
  }

  test('rotation: a new first key keeps old secrets readable; an unchanged replace rewrites them under it', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const first = writeConfig(dir, [local.aescbc]);
    let server = await startTestServer({ dataDir, controllers: false, encryption: { configPath: first } });
    try {
      await createSecret(server, 'old');
      await server.stop({ keep: true });
      assert.equal(
        prefixOf(storedValue(dataDir, '/registry/secrets/default/old')),
        'k8s:enc:aescbc:v1:cbc1:',
      );

      const rotated = writeConfig(dir, [local.secretbox, local.aescbc]);
      server = await startTestServer({ dataDir, controllers: false, encryption: { configPath: rotated } });
      assert.equal(await readPassword(server, 'old'), secretValue);
      await createSecret(server, 'new');
      await server.stop({ keep: true });
      assert.equal(
        prefixOf(storedValue(dataDir, '/registry/secrets/default/new')),
        'k8s:enc:secretbox:v1:box1:',
      );
      assert.equal(
        prefixOf(storedValue(dataDir, '/registry/secrets/default/old')),
        'k8s:enc:aescbc:v1:cbc1:',
      );
      server = await startTestServer({ dataDir, controllers: false, encryption: { configPath: rotated } });
      // Nothing changed in the object, but it was read with the second provider: it is rewritten.
      await replaceUnchanged(server, 'old');
      await server.stop({ keep: true });
      assert.equal(
        prefixOf(storedValue(dataDir, '/registry/secrets/default/old')),
        'k8s:enc:secretbox:v1:box1:',
      );

      // Once everything is rewritten the old key can go.
      const only = writeConfig(dir, [local.secretbox]);
      server = await startTestServer({ dataDir, controllers: false, encryption: { configPath: only } });
      assert.equal(await readPassword(server, 'old'), secretValue);
      assert.equal(await readPassword(server, 'new'), secretValue);
    } finally {
      await server.stop();
    }
  });

  const kubectlBin = findKubectl();
  test(
    'kubectl 1.27: `get secrets -o json | replace -f -` rewrites every Secret under the new first key',
    { skip: kubectlBin === undefined ? kubectlSkipReason : false },
    async () => {
      const dir = tempDir();
      const dataDir = join(dir, 'data');
      let server = await startTestServer({
        dataDir,
        controllers: false,
        encryption: { configPath: writeConfig(dir, [local.aescbc, { identity: {} }]) },
      });
      try {
        for (const name of ['a', 'b', 'c']) await createSecret(server, name);
        await server.stop({ keep: true });
        server = await startTestServer({
          dataDir,
          controllers: false,
          encryption: { configPath: writeConfig(dir, [local.aesgcm, local.aescbc, { identity: {} }]) },
        });
        const kubectl = (args: string[], input?: string): Promise<string> =>
          new Promise((resolve, reject) => {
            const child = execFile(
              kubectlBin!,
              args,
              { env: { ...process.env, KUBECONFIG: server.kubeconfigPath }, timeout: 60_000 },
              (err, stdout, stderr) =>
                err === null ? resolve(stdout) : reject(new Error(`${err.message}: ${stderr}`)),
            );
            if (input !== undefined) child.stdin?.end(input);
          });
        const list = await kubectl(['get', 'secrets', '-n', 'default', '-o', 'json']);
        const out = await kubectl(['replace', '-f', '-'], list);
        assert.match(out, /secret\/a replaced/);
        await server.stop({ keep: true });
        for (const name of ['a', 'b', 'c']) {
          assert.equal(
            prefixOf(storedValue(dataDir, `/registry/secrets/default/${name}`)),
            'k8s:enc:aesgcm:v1:gcm1:',
          );
        }
      } finally {
        await server.stop();
      }
    },
  );

  test('automatic reload: a changed file takes effect without a restart, a broken one is not used', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const configPath = writeConfig(dir, [local.aescbc]);
    const server = await startTestServer({
      dataDir,
      controllers: false,
      encryption: { configPath, automaticReload: true },
    });
    try {
      // With reload on, the kms-providers check is there even without a KMS provider.
      const ready = await server.request('GET', '/readyz?verbose');
      assert.ok(ready.text.includes('[+]kms-providers ok'), ready.text);
      await createSecret(server, 'before');
      const config = (providers: unknown[]): string =>
        JSON.stringify({
          apiVersion: 'apiserver.config.k8s.io/v1',
          kind: 'EncryptionConfiguration',
          resources: [{ resources: ['secrets'], providers }],
        });
      // A broken file is reported and ignored: the server keeps its providers.
      writeFileSync(configPath, config([{ aescbc: { keys: [{ name: 'bad', secret: 'AAAA' }] } }]));
      await createSecret(server, 'during');
      assert.equal(await readPassword(server, 'before'), secretValue);
      writeFileSync(configPath, config([local.secretbox, local.aescbc]));
      let n = 0;
      await waitFor('secretbox in use', async () => {
        await createSecret(server, `probe-${n++}`);
        return fileBytes(dataDir).includes('k8s:enc:secretbox:v1:box1:');
      });
      assert.equal(await readPassword(server, 'before'), secretValue);
      assert.equal(await readPassword(server, 'during'), secretValue);
      await server.stop({ keep: true });
      assert.equal(
        prefixOf(storedValue(dataDir, '/registry/secrets/default/before')),
        'k8s:enc:aescbc:v1:cbc1:',
      );
      assert.equal(
        prefixOf(storedValue(dataDir, '/registry/secrets/default/during')),
        'k8s:enc:aescbc:v1:cbc1:',
      );
      assert.equal(
        prefixOf(storedValue(dataDir, `/registry/secrets/default/probe-${n - 1}`)),
        'k8s:enc:secretbox:v1:box1:',
      );
    } finally {
      await server.stop();
    }
  });

  test('a value no configured provider knows is an internal error with upstream text, never garbage', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    let server = await startTestServer({
      dataDir,
      controllers: false,
      encryption: { configPath: writeConfig(dir, [local.aesgcm]) },
    });
    try {
      await createSecret(server, 's');
      await server.stop({ keep: true });
      // Restarted with a key of another name: nothing matches the stored prefix.
      const other = writeConfig(dir, [{ aesgcm: { keys: [{ name: 'gcm2', secret: key16 }] } }]);
      server = await startTestServer({ dataDir, controllers: false, encryption: { configPath: other } });
      const r = await server.request('GET', '/api/v1/namespaces/default/secrets/s');
      assert.equal(r.status, 500);
      const status = r.json<{ reason: string; message: string }>();
      assert.equal(status.reason, 'InternalError');
      assert.equal(
        status.message,
        'Internal error occurred: no matching key was found for the provided AES transformer',
      );
      const list = await server.request('GET', '/api/v1/namespaces/default/secrets');
      assert.equal(list.status, 500);
      assert.equal(
        list.json<{ message: string }>().message,
        'Internal error occurred: unable to transform key "/registry/secrets/default/s": no matching key was found for the provided AES transformer',
      );
      await server.stop({ keep: true });
      // Without any configuration the identity check refuses the ciphertext.
      server = await startTestServer({ dataDir, controllers: false });
      const plain = await server.request('GET', '/api/v1/namespaces/default/secrets/s');
      assert.equal(plain.status, 500);
      assert.equal(
        plain.json<{ message: string }>().message,
        'Internal error occurred: identity transformer tried to read encrypted data',
      );
    } finally {
      await server.stop();
    }
  });

  test('a bad configuration stops the server from starting with upstream text', async () => {
    const dir = tempDir();
    const short = writeConfig(dir, [
      { aescbc: { keys: [{ name: 'k', secret: Buffer.alloc(8).toString('base64') }] } },
    ]);
    await assert.rejects(
      startTestServer({ dataDir: join(dir, 'd1'), controllers: false, encryption: { configPath: short } }),
      {
        message:
          'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]',
      },
    );
    await assert.rejects(
      startTestServer({
        dataDir: join(dir, 'd2'),
        controllers: false,
        encryption: { configPath: join(dir, 'missing.yaml') },
      }),
      {
        message: `error while parsing file: error opening encryption provider configuration file "${join(dir, 'missing.yaml')}": open ${join(dir, 'missing.yaml')}: no such file or directory`,
      },
    );
  });
});

describe('encryption at rest with a KMS v2 plugin (AM-10)', () => {
  let plugin: TestKmsPlugin | undefined;
  after(async () => {
    await plugin?.stop();
  });

  test('envelope encryption, DEK reuse, key ID rotation and the kms-providers health check', async () => {
    plugin = await startTestKmsPlugin({ keyID: 'key-1' });
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const configPath = writeConfig(dir, [
      { kms: { apiVersion: 'v2', name: 'testkms', endpoint: plugin.endpoint, timeout: '2s' } },
      { identity: {} },
    ]);
    // Health answers are not remembered and the poll is fast, so the test sees changes at once.
    const kmsProbeTimings = {
      positiveTTLms: 0,
      negativeTTLms: 0,
      positiveIntervalMs: 50,
      negativeIntervalMs: 50,
    };
    const encryption = { configPath, kmsProbeTimings };
    let server = await startTestServer({ dataDir, controllers: false, encryption });
    try {
      const ready = await server.request('GET', '/readyz?verbose');
      assert.equal(ready.status, 200, ready.text);
      assert.ok(ready.text.includes('[+]kms-providers ok'), ready.text);
      // One DEK per server start: sealed by the plugin once, whatever the number of writes.
      const encryptsAtStart = plugin.calls.encrypt;
      assert.equal(encryptsAtStart, 1);
      await createSecret(server, 'k1');
      await createSecret(server, 'k2');
      assert.equal(plugin.calls.encrypt, encryptsAtStart);
      assert.equal(plugin.calls.decrypt, 0);

      assert.equal(await readPassword(server, 'k1'), secretValue);
      await server.stop({ keep: true });
      const stored = storedValue(dataDir, '/registry/secrets/default/k1');
      assert.equal(prefixOf(stored), 'k8s:enc:kms:v2:testkms:');
      assert.ok(!stored.includes(secretValue) && !stored.includes(secretB64));
      const envelope = decodeEncryptedObject(stored.subarray('k8s:enc:kms:v2:testkms:'.length));
      assert.equal(envelope.keyID, 'key-1');
      assert.ok(envelope.encryptedDEK.byteLength > 32);
      assert.deepEqual([...envelope.annotations.keys()], ['key-version.kms.nanokube.test']);

      // A restart makes a new DEK; reading values of the old one asks the plugin to decrypt it, once.
      server = await startTestServer({ dataDir, controllers: false, encryption });
      assert.equal(plugin.calls.encrypt, 2);
      assert.equal(await readPassword(server, 'k1'), secretValue);
      assert.equal(await readPassword(server, 'k2'), secretValue);
      assert.equal(plugin.calls.decrypt, 1);

      // The plugin moves to a new key: the probe sees the key ID change and seals a new DEK.
      plugin.rotate('key-2');
      await waitFor('a DEK sealed under key-2', () => plugin!.calls.encrypt === 3);
      // A passing check runs after the poll's own, so the new DEK is in place.
      assert.equal((await server.request('GET', '/readyz/kms-providers')).status, 200);
      // k1 was written under key-1: stale, so an unchanged replace rewrites it under key-2.
      await replaceUnchanged(server, 'k1');
      assert.equal(await readPassword(server, 'k1'), secretValue);
      await server.stop({ keep: true });
      const rewritten = storedValue(dataDir, '/registry/secrets/default/k1');
      assert.equal(
        decodeEncryptedObject(rewritten.subarray('k8s:enc:kms:v2:testkms:'.length)).keyID,
        'key-2',
      );
      const untouched = storedValue(dataDir, '/registry/secrets/default/k2');
      assert.equal(
        decodeEncryptedObject(untouched.subarray('k8s:enc:kms:v2:testkms:'.length)).keyID,
        'key-1',
      );
      server = await startTestServer({ dataDir, controllers: false, encryption });
      assert.equal(await readPassword(server, 'k2'), secretValue);

      // The plugin goes down: the kms-providers check fails on /readyz, /livez and /healthz.
      plugin.setFailing(true);
      for (const path of ['/readyz', '/livez', '/healthz']) {
        const r = await waitFor(`${path} to fail`, async () => {
          const res = await server.request('GET', `${path}?verbose`);
          return res.status === 500 ? res : undefined;
        });
        assert.ok(r.text.includes('[-]kms-providers failed: reason withheld'), r.text);
      }
      const single = await server.request('GET', '/readyz/kms-providers');
      assert.equal(single.status, 500);
      assert.equal(single.text, 'internal server error: [-]kms-providers failed: reason withheld\n');
      // Reads keep working while the plugin is down: the secrets' watch cache filled when the
      // server started (as upstream's cacher lists every resource then), which decrypted both
      // DEKs, and decrypted DEKs are cached. (A DEK never seen fails with upstream's "failed to
      // decrypt DEK" error: kmsv2.test.ts.)
      const decrypts = plugin.calls.decrypt;
      assert.equal(await readPassword(server, 'k2'), secretValue);
      assert.equal(await readPassword(server, 'k1'), secretValue);
      assert.equal(plugin.calls.decrypt, decrypts, 'no call to the plugin while it is down');
      plugin.setFailing(false);
      await waitFor(
        'the check to pass again',
        async () => (await server.request('GET', '/readyz/kms-providers')).status === 200,
      );

      assert.ok(!fileBytes(dataDir).includes(secretB64));
    } finally {
      await server.stop();
    }
  });
});
