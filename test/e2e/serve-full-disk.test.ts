/**
 * A full disk under `nanokube serve`: the data dir lives on a small tmpfs the test mounts, and a
 * ballast file fills it. Writes then get a 500 `Status` (as kube-apiserver's on etcd's NOSPACE
 * alarm) and the operator a log line; reads, lists, watches and /readyz go on; nothing stored
 * before is changed; once the ballast is removed, writes resume without a restart, and the
 * database passes `PRAGMA integrity_check`. Needs root (mount); skipped otherwise.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { httpsClient, readCredentials } from './support-client/https-client.js';
import type { Credentials, HttpsClient } from './support-client/https-client.js';
import { skipWithoutDist, spawnServer } from './support-client/spawn-server.js';
import type { SpawnedServer } from './support-client/spawn-server.js';

interface ConfigMapLike {
  readonly metadata: { readonly name: string; readonly resourceVersion: string };
  readonly data?: Record<string, string>;
}
interface StatusLike {
  readonly kind: string;
  readonly code: number;
  readonly reason?: string;
  readonly message: string;
}

const cms = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string, value: string): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { value },
});
/** Text that does not compress or deduplicate: random bytes as base64. */
const payload = (bytes: number): string =>
  Buffer.from(Array.from({ length: bytes }, () => Math.floor(Math.random() * 256))).toString('base64');

/** Writes `path` until the filesystem refuses with ENOSPC, in ever smaller pieces. */
function fillUp(path: string): number {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          written += writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

/** A watch's events as they come, as their types and names. */
function watch(
  creds: Credentials,
  path: string,
): { events: string[]; ended: () => boolean; stop: () => void } {
  const url = new URL(creds.server);
  const events: string[] = [];
  let ended = false;
  let buffered = '';
  const req = request(
    { host: url.hostname, port: url.port, path, ca: creds.ca, cert: creds.cert, key: creds.key },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const e = JSON.parse(buffered.slice(0, nl)) as { type: string; object: ConfigMapLike };
          events.push(`${e.type} ${e.object.metadata.name}`);
          buffered = buffered.slice(nl + 1);
        }
      });
      res.on('end', () => (ended = true));
    },
  );
  req.on('error', () => (ended = true));
  req.end();
  return { events, ended: () => ended, stop: () => req.destroy() };
}

const dirs: string[] = [];
const mounts: string[] = [];
const servers: SpawnedServer[] = [];
after(async () => {
  for (const s of servers) await s.kill();
  for (const m of mounts) execFileSync('umount', [m], { stdio: 'ignore' });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('nanokube serve on a full disk', { skip: skipWithoutDist }, () => {
  it(
    'refuses writes with a 500 Status, keeps reads and watches, and resumes once space is freed',
    {
      timeout: 60_000,
    },
    async (t) => {
      const base = mkdtempSync(join(tmpdir(), 'nanokube-full-disk-'));
      dirs.push(base);
      const mnt = join(base, 'fs');
      mkdirSync(mnt);
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mnt], { stdio: 'ignore' });
      } catch {
        t.skip('mounting a tmpfs needs root');
        return;
      }
      mounts.push(mnt);
      const dataDir = join(mnt, 'data');
      const server = await spawnServer({ dataDir, extraArgs: ['--nodes', '0'] });
      servers.push(server);
      const creds = readCredentials(server.kubeconfigPath);
      const client: HttpsClient = httpsClient(creds);
      try {
        const stored = new Map<string, ConfigMapLike>();
        for (let i = 0; i < 3; i++) {
          const r = await client.send('POST', cms, configMap(`before-${i}`, payload(150_000)));
          assert.equal(r.status, 201, r.text);
          const cm = r.json<ConfigMapLike>();
          stored.set(cm.metadata.name, cm);
        }
        const listed = await client.send('GET', cms);
        const rv = listed.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
        const w = watch(creds, `${cms}?watch=true&resourceVersion=${rv}`);

        const ballast = join(mnt, 'ballast');
        const filled = fillUp(ballast);
        t.diagnostic(`ballast of ${(filled / 2 ** 20).toFixed(1)} MiB filled the 24 MiB tmpfs`);

        // Writes while full: each either refused with a 500 Status or (a small one that fits in
        // pages SQLite already has) done whole; the large one cannot fit.
        const outcomes: string[] = [];
        const refused = async (method: string, path: string, body?: unknown): Promise<void> => {
          const r = await client.send(method, path, body);
          if (r.status < 300) {
            outcomes.push(`${method} ${r.status}`);
            return;
          }
          assert.equal(r.status, 500, `${method} ${path} on a full disk: ${r.status} ${r.text}`);
          const status = r.json<StatusLike>();
          assert.equal(status.kind, 'Status');
          assert.equal(status.code, 500);
          assert.equal(status.reason, 'InternalError');
          assert.equal(status.message, 'Internal error occurred: database or disk is full');
          outcomes.push(`${method} refused`);
        };
        await refused('POST', cms, configMap('while-full-large', payload(700_000)));
        await refused('POST', cms, configMap('while-full-small', 'x'));
        const first = stored.get('before-0')!;
        await refused('PUT', `${cms}/before-0`, { ...first, data: { value: payload(500_000) } });
        t.diagnostic(`writes on the full disk: ${outcomes.join(', ')}`);
        assert.equal(outcomes[0], 'POST refused');
        assert.equal(outcomes[2], 'PUT refused');
        assert.match(server.stderr(), /writes refused: the filesystem holding \S+ is full \(SQLITE_FULL\)/);

        // Reads, lists and readiness go on; what was stored is unchanged.
        for (const [name, cm] of stored) {
          const got = await client.send('GET', `${cms}/${name}`);
          assert.equal(got.status, 200, got.text);
          assert.deepEqual(got.json<ConfigMapLike>(), cm);
        }
        const list = await client.send('GET', `${cms}?limit=2`);
        assert.equal(list.status, 200, list.text);
        assert.equal((await client.send('GET', '/readyz')).status, 200);
        assert.equal(w.ended(), false, 'the watch ended on the full disk');

        // Space freed: writes resume on their own, and the watch sees them.
        rmSync(ballast);
        const resumed = await client.send('POST', cms, configMap('after-free', payload(150_000)));
        assert.equal(resumed.status, 201, resumed.text);
        const updated = await client.send('PUT', `${cms}/before-1`, {
          ...stored.get('before-1')!,
          data: { value: 'changed' },
        });
        assert.equal(updated.status, 200, updated.text);
        await until('the watch to see the writes after the free', () =>
          w.events.includes('MODIFIED before-1'),
        );
        assert.ok(w.events.includes('ADDED after-free'), w.events.join(', '));
        assert.ok(!w.events.includes('ADDED while-full-large'), w.events.join(', '));
        w.stop();
      } finally {
        client.close();
        assert.equal(await server.stop(), 0, server.stderr());
      }
      const db = new Database(join(dataDir, 'state.db'), { fileMustExist: true });
      try {
        assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      } finally {
        db.close();
      }
    },
  );
});
