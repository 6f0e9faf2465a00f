import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { EventReader, bytes, describeEvent, text } from '../testing/helpers.js';
import type { KeyValue } from '../types.js';
import { prefixEnd } from '../types.js';
import { SCHEMA_VERSION } from './migrations.js';
import { DatabaseTooNewError } from './schema.js';
import { openSqliteKv } from './sqlite-kv.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nanokube-sqlite-migrations-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let seq = 0;
const freshPath = (): string => path.join(dir, `kv-${++seq}.db`);

/** The tables exactly as the first release (schema version 0, no user_version) created them. */
const VERSION_0_TABLES = `
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  create_rev INTEGER NOT NULL,
  mod_rev INTEGER NOT NULL,
  value BLOB NOT NULL,
  lease INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kv_lease ON kv (lease) WHERE lease != 0;
CREATE TABLE IF NOT EXISTS log (
  rev INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  create_rev INTEGER NOT NULL,
  prev_rev INTEGER NOT NULL,
  value BLOB,
  lease INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS log_key_rev ON log (key, rev);
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT OR IGNORE INTO meta (name, value) VALUES ('rev', 0), ('compact', 0);
CREATE TABLE IF NOT EXISTS lease (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ttl INTEGER NOT NULL,
  expiry INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS lease_expiry ON lease (expiry);
`;

/**
 * Writes a version-0 file the way the first release did, one revision per write: 1 create /a,
 * 2 create /b (leased), 3 update /a, 4 delete /b, 5 create /c, 6 update /c; compacted at 2, which
 * dropped nothing (each key's newest version at or below 2 is a put).
 */
function writeVersion0(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(VERSION_0_TABLES);
  const lease = Number(
    db.prepare('INSERT INTO lease (ttl, expiry) VALUES (60, ?)').run(Date.now() + 60_000).lastInsertRowid,
  );
  const log = db.prepare(
    'INSERT INTO log (rev, key, type, create_rev, prev_rev, value, lease) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const row = (
    rev: number,
    key: string,
    type: 0 | 1,
    create: number,
    prev: number,
    value: string | null,
    l = 0,
  ): void => {
    log.run(rev, key, type, create, prev, value === null ? null : Buffer.from(value), l);
  };
  row(1, '/a', 0, 1, 0, 'a1');
  row(2, '/b', 0, 2, 0, 'b1', lease);
  row(3, '/a', 0, 1, 1, 'a2');
  row(4, '/b', 1, 0, 2, null);
  row(5, '/c', 0, 5, 0, 'c1');
  row(6, '/c', 0, 5, 5, 'c2');
  const kv = db.prepare('INSERT INTO kv (key, create_rev, mod_rev, value, lease) VALUES (?, ?, ?, ?, 0)');
  kv.run('/a', 1, 3, Buffer.from('a2'));
  kv.run('/c', 5, 6, Buffer.from('c2'));
  db.exec("UPDATE meta SET value = 6 WHERE name = 'rev'; UPDATE meta SET value = 2 WHERE name = 'compact';");
  assert.equal(db.pragma('user_version', { simple: true }), 0);
  db.close();
}

const kvText = (kv: KeyValue): string => `${kv.key}=${text(kv.value)}@${kv.createRevision}/${kv.modRevision}`;
const all = { key: '/', end: prefixEnd('/') };

function inspect(file: string): { version: number; logRows: number; indexes: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      logRows: (db.prepare('SELECT count(*) AS n FROM log').get() as { n: number }).n,
      indexes: (
        db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log' ORDER BY name")
          .all() as {
          name: string;
        }[]
      ).map((r) => r.name),
    };
  } finally {
    db.close();
  }
}

describe('sqlite kv schema migrations', () => {
  it('opens a version-0 data dir once migrated, keeping every row and revision', async () => {
    const file = freshPath();
    writeVersion0(file);
    const kv = await openSqliteKv({ path: file });
    try {
      assert.equal(await kv.currentRevision(), 6);
      assert.equal(await kv.compactedRevision(), 2);
      assert.deepEqual((await kv.range(all)).kvs.map(kvText), ['/a=a2@1/3', '/c=c2@5/6']);
      assert.deepEqual((await kv.range({ ...all, revision: 2 })).kvs.map(kvText), ['/a=a1@1/1', '/b=b1@2/2']);
      assert.deepEqual((await kv.range({ ...all, revision: 5 })).kvs.map(kvText), ['/a=a2@1/3', '/c=c1@5/5']);
      const reader = new EventReader(kv.watch({ ...all, startRevision: 3, prevKv: true }));
      const replayed = await reader.take(4);
      assert.deepEqual(replayed.map(describeEvent), [
        'put /a@3 (prev 1)',
        'delete /b@4 (prev 2)',
        'put /c@5',
        'put /c@6 (prev 5)',
      ]);
      assert.deepEqual(
        replayed.map((ev) => (ev.prevKv === undefined ? '' : text(ev.prevKv.value))),
        ['a1', 'b1', '', 'c1'],
      );
      // New writes continue the revisions, several keys per revision now.
      const res = await kv.txn({
        success: [
          { type: 'put', key: '/d', value: bytes('d1') },
          { type: 'put', key: '/a', value: bytes('a3') },
          { type: 'delete', key: '/c' },
        ],
      });
      assert.equal(res.revision, 7);
      assert.deepEqual((await reader.take(3)).map(describeEvent), [
        'put /d@7',
        'put /a@7 (prev 3)',
        'delete /c@7 (prev 6)',
      ]);
      const created = await kv.create('/e', bytes('e1'));
      assert.ok(created.ok);
      assert.equal(created.kv.modRevision, 8);
      assert.deepEqual((await kv.range({ ...all, revision: 6 })).kvs.map(kvText), ['/a=a2@1/3', '/c=c2@5/6']);
      await kv.compact(7);
      assert.deepEqual((await kv.range({ ...all, revision: 7 })).kvs.map(kvText), ['/a=a3@1/7', '/d=d1@7/7']);
    } finally {
      await kv.close();
    }
    const after1 = inspect(file);
    assert.equal(after1.version, SCHEMA_VERSION);
    assert.deepEqual(after1.indexes, ['log_key_rev']);

    // A second open finds the current version and changes nothing.
    const again = await openSqliteKv({ path: file });
    try {
      assert.equal(await again.currentRevision(), 8);
      assert.deepEqual((await again.range(all)).kvs.map(kvText), ['/a=a3@1/7', '/d=d1@7/7', '/e=e1@8/8']);
      const reader = new EventReader(again.watch({ ...all, startRevision: 8 }));
      assert.deepEqual((await reader.take(1)).map(describeEvent), ['put /e@8']);
    } finally {
      await again.close();
    }
    assert.deepEqual(inspect(file), after1);
  });

  it('keeps the revisions of the old log as the order of the new one', async () => {
    const file = freshPath();
    writeVersion0(file);
    await (await openSqliteKv({ path: file })).close();
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT id, rev, key FROM log ORDER BY id').all() as {
        id: number;
        rev: number;
      }[];
      assert.deepEqual(
        rows.map((r) => [r.id, r.rev]),
        [1, 2, 3, 4, 5, 6].map((rev) => [rev * 2 ** 20, rev]),
      );
    } finally {
      db.close();
    }
  });

  it('creates the current schema in a new file and refuses a file from a newer nanokube', async () => {
    const file = freshPath();
    await (await openSqliteKv({ path: file })).close();
    assert.equal(inspect(file).version, SCHEMA_VERSION);
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await assert.rejects(openSqliteKv({ path: file }), DatabaseTooNewError);
  });
});
