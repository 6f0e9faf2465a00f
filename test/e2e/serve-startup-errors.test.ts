/**
 * Operator errors at start-up as a user meets them (#29): a data dir that cannot be used, a
 * damaged PKI, a database that is not one or comes from a newer nanokube. Each is one line on
 * stderr saying what and how to fix it, exit code 1, no stack trace, and nothing written.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ensurePki } from '../../src/cmd/serve/pki.js';
import { cliPath } from './support/nanokube-process.js';

function serve(
  dataDir: string,
  more: readonly string[] = [],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, 'serve', '--data-dir', dataDir, '--secure-port', '0', '--nodes', '0', ...more],
      { timeout: 30_000 },
      (err, _stdout, stderr) => resolve({ code: err === null ? 0 : (err.code as number | null), stderr }),
    );
  });
}

/** One line, exit 1 (2 for a flag), no stack trace. */
async function refused(
  dataDir: string,
  message: string,
  more: readonly string[] = [],
  code = 1,
): Promise<void> {
  const r = await serve(dataDir, more);
  assert.equal(r.stderr, `Error: ${message}\n`);
  assert.equal(r.code, code);
}

describe('#29 nanokube serve refuses what it cannot start from, in one line', () => {
  const base = mkdtempSync(join(tmpdir(), 'nanokube-startup-'));
  after(() => rmSync(base, { recursive: true, force: true }));

  /** A data dir with a fresh PKI (and no database). */
  async function withPki(name: string): Promise<string> {
    const dir = join(base, name);
    await ensurePki(join(dir, 'pki'), ['127.0.0.1']);
    return dir;
  }

  it('a file where the data dir should be', async () => {
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    await refused(file, `data dir ${file} is not a directory (choose another with --data-dir)`);
  });

  it('a data dir on a read-only file system, new or existing', async (t) => {
    const mnt = join(base, 'ro');
    mkdirSync(mnt);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      t.skip('mounting a tmpfs needs root');
      return;
    }
    try {
      mkdirSync(join(mnt, 'existing'));
      execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'ignore' });
      await refused(
        join(mnt, 'new', 'dir'),
        `cannot create data dir ${join(mnt, 'new', 'dir')}: read-only file system (EROFS) (choose another with --data-dir)`,
      );
      await refused(
        join(mnt, 'existing'),
        `data dir ${join(mnt, 'existing')} is not writable: read-only file system (EROFS) (choose another with --data-dir)`,
      );
      assert.deepEqual(readdirSync(join(mnt, 'existing')), []);
    } finally {
      execFileSync('umount', [mnt], { stdio: 'ignore' });
    }
  });

  it('a PKI file that does not parse, a key that is not its certificate’s', async () => {
    const garbled = await withPki('garbled-ca');
    writeFileSync(join(garbled, 'pki', 'ca.crt'), 'garbage\n');
    await refused(
      garbled,
      `${join(garbled, 'pki', 'ca.crt')}: not a PEM certificate (fix it, or remove ${join(garbled, 'pki')} to have new credentials made)`,
    );
    const badKey = await withPki('garbled-key');
    writeFileSync(join(badKey, 'pki', 'apiserver.key'), 'garbage\n');
    await refused(
      badKey,
      `${join(badKey, 'pki', 'apiserver.key')}: not a PEM private key (fix it, or remove ${join(badKey, 'pki')} to have new credentials made)`,
    );
    const swapped = await withPki('swapped');
    copyFileSync(join(swapped, 'pki', 'apiserver.key'), join(swapped, 'pki', 'admin.key'));
    await refused(
      swapped,
      `${join(swapped, 'pki', 'admin.key')}: not the key of admin.crt (fix it, or remove ${join(swapped, 'pki')} to have new credentials made)`,
    );
    // Nothing was started: no database was made.
    for (const dir of [garbled, badKey, swapped]) assert.ok(!readdirSync(dir).includes('state.db'));
  });

  it('a state.db that is not a database, and one written by a newer nanokube', async () => {
    const notDb = await withPki('not-db');
    writeFileSync(
      join(notDb, 'state.db'),
      'this is not a SQLite database file, only text long enough\n'.repeat(4),
    );
    await refused(
      notDb,
      `cannot use database ${join(notDb, 'state.db')}: file is not a database (SQLITE_NOTADB; choose another --data-dir, or restore a snapshot into a new one)`,
    );
    const newer = await withPki('newer');
    const db = new Database(join(newer, 'state.db'));
    db.pragma('user_version = 99');
    db.close();
    await refused(
      newer,
      `database ${join(newer, 'state.db')} has schema version 99; this nanokube knows up to 2 (run the newer nanokube that wrote it)`,
    );
  });

  it('bad flags and configuration files; an unexpected failure is one line too, its stack with --v=4', async () => {
    const dir = join(base, 'flags');
    await refused(
      dir,
      'invalid argument "nonsense" for "--bind-address" flag: failed to parse IP: "nonsense"',
      ['--bind-address', 'nonsense'],
      2,
    );
    await refused(dir, 'unknown tls version "VersionTLS14"', ['--tls-min-version', 'VersionTLS14'], 2);
    await refused(
      dir,
      "Cipher suite TLS_RSA_WITH_RC4_128_SHA not supported or doesn't exist",
      ['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_RSA_WITH_RC4_128_SHA'],
      2,
    );
    const missing = join(base, 'no-such-policy.yaml');
    await refused(
      dir,
      `loading audit policy file: failed to read file path "${missing}": ENOENT: no such file or directory, open '${missing}'`,
      ['--audit-policy-file', missing],
    );
    // Nothing listens on port 1: the etcd client's error, as one line.
    const etcd = ['--storage', 'etcd', '--etcd-servers', 'http://127.0.0.1:1'];
    const plain = await serve(dir, etcd);
    assert.equal(plain.code, 1);
    const lines = plain.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('E '));
    assert.equal(lines.length, 1, plain.stderr);
    assert.match(lines[0]!, /^Error: etcd http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
    const verbose = await serve(dir, [...etcd, '--v=4']);
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /^nanokube: Error: etcd .*\n {4}at /m);
  });
});
