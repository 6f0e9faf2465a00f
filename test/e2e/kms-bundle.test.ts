/**
 * KMS v2 encryption at rest (AM-10) through the built `nanokube serve`: the bundle keeps the
 * gRPC client in dist/grpc.js, loaded only when a KMS provider is configured, so this checks that
 * the executable as shipped reaches a plugin: the kms-providers readiness check passes, a Secret
 * written through the API is stored sealed by the plugin and reads back in plaintext.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { RestClient } from '../../src/client/rest-client.js';
import type { ClientCredentials } from '../../src/client/credentials.js';
import { credentialsFromKubeconfig } from '../../src/cmd/kubeconfig-credentials.js';
import { startTestKmsPlugin } from '../support/kms-plugin.js';
import type { TestKmsPlugin } from '../support/kms-plugin.js';
import { startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';

let plugin: TestKmsPlugin;
let server: NanokubeProcess;
let client: RestClient;
let credentials: ClientCredentials;
const dataDir = join(mkdtempSync(join(tmpdir(), 'nanokube-kms-e2e-')), 'data');
const secretValue = 'kms-bundle-secret-0d9e';

/** A GET answered in text (the health endpoints), with the admin's client certificate. */
function getText(path: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, credentials.server);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca: credentials.ca,
        ...(credentials.cert !== undefined ? { cert: credentials.cert } : {}),
        ...(credentials.key !== undefined ? { key: credentials.key } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  plugin = await startTestKmsPlugin();
  const configPath = join(plugin.socketPath, '..', 'encryption.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        {
          resources: ['secrets'],
          providers: [
            { kms: { apiVersion: 'v2', name: 'e2ekms', endpoint: plugin.endpoint, timeout: '3s' } },
          ],
        },
      ],
    }),
  );
  server = await startNanokube({
    args: ['--encryption-provider-config', configPath, '--controllers=', '--nodes', '0'],
    dataDir,
  });
  credentials = credentialsFromKubeconfig(server.kubeconfigPath);
  client = new RestClient(credentials);
});

after(async () => {
  client?.close();
  await server?.stop();
  await plugin?.stop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
});

test('the built server seals Secrets through a KMS v2 plugin over gRPC', async () => {
  const ready = await getText('/readyz?verbose');
  assert.equal(ready.status, 200, ready.text);
  assert.match(ready.text, /\[\+\]kms-providers ok/);
  await client.request('POST', '/api/v1/namespaces/default/secrets', {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sealed' },
      stringData: { password: secretValue },
    },
  });
  const read = await client.request('GET', '/api/v1/namespaces/default/secrets/sealed');
  const data = read['data'] as Record<string, string>;
  assert.equal(Buffer.from(data['password'] ?? '', 'base64').toString(), secretValue);
  assert.ok(plugin.calls.encrypt >= 1, 'the plugin was asked to encrypt');
  // The database holds the envelope, never the value (read once the server let go of the file).
  await server.stop();
  const db = new Database(join(dataDir, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT value FROM kv WHERE key = ?').get('/registry/secrets/default/sealed') as
      { value: Buffer } | undefined;
    assert.ok(row !== undefined, 'the Secret is stored');
    assert.equal(row.value.subarray(0, 'k8s:enc:kms:v2:e2ekms:'.length).toString(), 'k8s:enc:kms:v2:e2ekms:');
    assert.ok(!row.value.includes(secretValue), 'the value is not stored in plaintext');
  } finally {
    db.close();
  }
});
